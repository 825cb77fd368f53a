// Owns the searchable snapshot of one catalog that meta mode works on: every exposed tool with its
// server, original name, definition and category, and a ToolIndex over them. A snapshot is built
// lazily on first use and rebuilt when the catalog's merged tool list changes (the catalog replaces
// that array on every change, so identity is the change signal). The index itself lives as long as
// the catalog and is updated incrementally: only tools whose indexed content changed are
// re-indexed, added or removed.
import type { Catalog, Entry } from '../catalog/catalog.js';
import { ToolIndex, type SearchHit } from '../search/index.js';
import { inferCategory } from './categories.js';

export interface MetaTool {
  /** The exposed name: the stable key clients pass to tool_execute. */
  key: string;
  server: string;
  originalName: string;
  description: string;
  category: string;
  /** The tool as tools/list shows it (exposed name). */
  definition: Entry;
}

export interface RankedTool {
  tool: MetaTool;
  score: number;
}

export class MetaSnapshot {
  readonly tools: MetaTool[];
  readonly byKey: ReadonlyMap<string, MetaTool>;
  private index: ToolIndex | undefined;

  constructor(
    tools: MetaTool[],
    private readonly serverDescriptions: (server: string) => string | undefined = () => undefined,
    private readonly shared?: IndexState,
  ) {
    this.tools = tools;
    this.byKey = new Map(tools.map((t) => [t.key, t]));
  }

  /** The index is brought up to date on the first search (listing and capabilities do not need it). */
  private get toolIndex(): ToolIndex {
    if (this.index) return this.index;
    const state = this.shared ?? { index: new ToolIndex(), indexed: new Map<string, string>() };
    const seen = new Set<string>();
    for (const tool of this.tools) {
      const def = tool.definition;
      const doc = {
        key: tool.key,
        server: tool.server,
        name: tool.originalName,
        ...(typeof def.title === 'string' && def.title !== tool.originalName && { title: def.title }),
        description: tool.description,
        inputSchema: def.inputSchema,
        serverDescription: this.serverDescriptions(tool.server),
      };
      const content = JSON.stringify(doc);
      seen.add(tool.key);
      const before = state.indexed.get(tool.key);
      if (before === content) continue;
      if (before === undefined) state.index.add(doc);
      else state.index.update(doc);
      state.indexed.set(tool.key, content);
    }
    for (const key of [...state.indexed.keys()]) {
      if (seen.has(key)) continue;
      state.index.remove(key);
      state.indexed.delete(key);
    }
    return (this.index = state.index);
  }

  search(query: string, options: { limit: number; server?: string }): RankedTool[] {
    const hits: SearchHit[] = this.toolIndex.search(query, { limit: options.limit, ...(options.server !== undefined && { server: options.server }) });
    return hits.flatMap((hit) => {
      const tool = this.byKey.get(hit.key);
      return tool ? [{ tool, score: hit.score }] : [];
    });
  }

  get size(): number {
    return this.tools.length;
  }
}

/** The tools of a catalog as meta mode sees them. */
export function metaToolsOf(catalog: Catalog): MetaTool[] {
  const definitions = new Map(catalog.tools().map((t) => [t.name as string, t]));
  return catalog.toolTable.entries().flatMap((entry) => {
    const definition = definitions.get(entry.exposed);
    if (!definition) return [];
    const description = typeof definition.description === 'string' ? definition.description : '';
    return [{ key: entry.exposed, server: entry.serverKey, originalName: entry.originalName, description, category: inferCategory(entry.originalName, description), definition }];
  });
}

/** One catalog's search index and the indexed content per tool key (to re-index only what changed). */
interface IndexState {
  index: ToolIndex;
  indexed: Map<string, string>;
}

const snapshots = new WeakMap<Catalog, { source: Entry[]; snapshot: MetaSnapshot; state: IndexState }>();

/** The snapshot of a catalog, rebuilt only when its tool list changed; the index is carried over. */
export function snapshotOf(catalog: Catalog, serverDescriptions?: (server: string) => string | undefined): MetaSnapshot {
  const source = catalog.tools();
  const cached = snapshots.get(catalog);
  if (cached && cached.source === source) return cached.snapshot;
  const state = cached?.state ?? { index: new ToolIndex(), indexed: new Map<string, string>() };
  const snapshot = new MetaSnapshot(metaToolsOf(catalog), serverDescriptions, state);
  snapshots.set(catalog, { source, snapshot, state });
  return snapshot;
}
