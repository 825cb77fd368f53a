// Owns what a session lists: tools/list, prompts/list, resources/list and resources/templates/list,
// paged, from the session's catalog and by its view (one server's own entries; toolset mode's
// management tools plus the equipped toolset; meta mode's meta-tools; else everything), with call
// metrics in listed tools' `_meta` when includeMetrics is on.
import type { Catalog, Entry } from '../catalog/catalog.js';
import type { ClientScope } from '../views/scope.js';
import { metaToolList } from './meta-calls.js';
import { page } from './pagination.js';
import type { SessionServices } from './ports.js';
import { toolsetToolList } from './toolset-tools.js';
import type { View } from './view.js';

type Params = Record<string, unknown>;
type Result = Record<string, unknown>;

/** What listing needs from the session it answers for. */
export interface ListingSession {
  readonly view: View;
  readonly scope: ClientScope | undefined;
  readonly services: Pick<SessionServices<never>, 'local' | 'toolMetrics' | 'settings'>;
  catalog(): Promise<Catalog>;
  /** The toolset the session sees in toolset mode. */
  equippedToolset(): string | undefined;
}

/** The methods answered here. */
export const LIST_METHODS: ReadonlySet<string> = new Set(['tools/list', 'prompts/list', 'resources/list', 'resources/templates/list']);

/** Answers one of LIST_METHODS; single: the server of a per-server view. */
export async function answerList(session: ListingSession, method: string, params: Params, single: string | undefined): Promise<Result> {
  const catalog = await session.catalog();
  const pageSize = session.services.settings.pageSize;
  switch (method) {
    case 'tools/list': {
      const tools = single
        ? catalog.listing(single).tools
        : isToolsetView(session.view)
          ? toolsetTools(session, catalog)
          : showsMetaTools(session, catalog)
            ? metaToolList(session.services.local, catalog, session.scope)
            : catalog.tools();
      const { items, nextCursor } = page('tools', tools, params.cursor, pageSize);
      return { tools: withMetrics(session, catalog, items, single), ...(nextCursor && { nextCursor }) };
    }
    case 'prompts/list': {
      const prompts = single ? catalog.listing(single).prompts : catalog.prompts();
      const { items, nextCursor } = page('prompts', prompts, params.cursor, pageSize);
      return { prompts: items, ...(nextCursor && { nextCursor }) };
    }
    case 'resources/list': {
      const resources = single ? catalog.listing(single).resources : catalog.resources();
      const { items, nextCursor } = page('resources', resources, params.cursor, pageSize);
      return { resources: items, ...(nextCursor && { nextCursor }) };
    }
    default: {
      const templates = single ? catalog.listing(single).resourceTemplates : catalog.resourceTemplates();
      const { items, nextCursor } = page('resourceTemplates', templates, params.cursor, pageSize);
      return { resourceTemplates: items, ...(nextCursor && { nextCursor }) };
    }
  }
}

export function isToolsetView(view: View): boolean {
  return view.kind === 'toolset' || view.kind === 'fixed-toolset';
}

/** Toolset mode: the management tools, then the equipped toolset's tools. A fixed toolset: its tools only. */
export function toolsetTools(session: ListingSession, catalog: Catalog): Entry[] {
  const view = session.view;
  const name = view.kind === 'fixed-toolset' ? view.name : session.equippedToolset();
  const tools = session.services.local.toolsets?.resolve(name, catalog)?.tools ?? [];
  return view.kind === 'toolset' ? [...(toolsetToolList() as Entry[]), ...tools] : tools;
}

/** Meta mode always; auto mode while the catalog has more exposed tools than maxTools (decided on every listing). */
export function showsMetaTools(session: ListingSession, catalog: Catalog): boolean {
  if (session.view.kind === 'meta') return true;
  return session.view.kind === 'auto' && catalog.tools().length > session.services.settings.meta.maxTools;
}

/** Listed tools with their call metrics in `_meta` when `includeMetrics` is on; as they are otherwise. */
function withMetrics(session: ListingSession, catalog: Catalog, tools: Entry[], single: string | undefined): Entry[] {
  const annotator = session.services.toolMetrics;
  if (!annotator) return tools;
  return annotator.annotate(tools, (name) => {
    if (single) return { server: single, tool: name };
    const entry = catalog.toolTable.resolve(name);
    return entry && { server: entry.serverKey, tool: entry.originalName };
  });
}
