// Owns filtering a session's listings by its client's scope: tools, prompts, resources and
// templates of servers (or tools) outside the scope are left out. The gateway's own tools (meta,
// toolset management) are not catalog entries and stay.
import type { Catalog, Entry } from '../catalog/catalog.js';
import type { ClientScope } from '../views/scope.js';

type Result = Record<string, unknown>;

const LISTS: Record<string, string> = { 'tools/list': 'tools', 'prompts/list': 'prompts', 'resources/list': 'resources', 'resources/templates/list': 'resourceTemplates' };

export async function scopeEntries(scope: ClientScope, method: string, result: Result, catalogOf: () => Promise<Catalog>, single: string | undefined): Promise<Result> {
  const field = LISTS[method];
  if (!field || !Array.isArray(result[field])) return result;
  const entries = result[field] as Entry[];
  if (single) {
    if (field !== 'tools') return result;
    return { ...result, tools: entries.filter((t) => scope.allowsTool(single, t.name as string)) };
  }
  const catalog = await catalogOf();
  const allowed = (entry: Entry): boolean => {
    switch (field) {
      case 'tools': {
        const named = catalog.toolTable.resolve(entry.name as string);
        return !named || scope.allowsTool(named.serverKey, named.originalName, entry.name as string);
      }
      case 'prompts': {
        const named = catalog.promptTable.resolve(entry.name as string);
        return !named || scope.allowsServer(named.serverKey);
      }
      case 'resources': {
        const owner = catalog.resourceOwner(entry.uri as string);
        return owner === undefined || scope.allowsServer(owner);
      }
      default: {
        const owner = catalog.templateOwner(entry.uriTemplate as string);
        return owner === undefined || scope.allowsServer(owner);
      }
    }
  };
  return { ...result, [field]: entries.filter(allowed) };
}
