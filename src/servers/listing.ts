// Owns reading a server's lists (tools, prompts, resources, resource templates) page by page,
// raw: what the server sent, without schema validation, up to a bound on the number of pages.
import type { ServerCapabilities } from '@modelcontextprotocol/client';

export type ListKind = 'tools' | 'prompts' | 'resources' | 'resourceTemplates';

const LIST_METHOD: Record<ListKind, string> = {
  tools: 'tools/list',
  prompts: 'prompts/list',
  resources: 'resources/list',
  resourceTemplates: 'resources/templates/list',
};

const LIST_CAPABILITY: Record<ListKind, keyof ServerCapabilities> = {
  tools: 'tools',
  prompts: 'prompts',
  resources: 'resources',
  resourceTemplates: 'resources',
};

const MAX_LIST_PAGES = 1000;

export function supportsList(capabilities: ServerCapabilities | undefined, kind: ListKind): boolean {
  return Boolean(capabilities?.[LIST_CAPABILITY[kind]]);
}

type Send = (method: string, params: Record<string, unknown>) => Promise<Record<string, unknown>>;

/** Every item of every page, following nextCursor until the server stops giving one. */
export async function readAllPages(kind: ListKind, send: Send, onTooMany: (pages: number) => void): Promise<unknown[]> {
  const items: unknown[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_LIST_PAGES; page++) {
    const result = await send(LIST_METHOD[kind], cursor ? { cursor } : {});
    const batch = result[kind];
    if (Array.isArray(batch)) items.push(...batch);
    cursor = typeof result.nextCursor === 'string' && result.nextCursor ? result.nextCursor : undefined;
    if (!cursor) return items;
  }
  onTooMany(MAX_LIST_PAGES);
  return items;
}
