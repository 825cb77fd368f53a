// Owns the searchable snapshot of one catalog that meta mode works on: every exposed tool with its
// server, original name, definition and category, and a search engine over them. A snapshot is built
// lazily on first use and rebuilt when the catalog's merged tool list changes (the catalog replaces
// that array on every change, so identity is the change signal). The engine itself lives as long as
// the catalog and is updated incrementally: only tools whose indexed content changed are
// re-indexed, added or removed.
import type { Catalog, Entry } from '../catalog/catalog.js';
import { inferCategories } from '../search/categories.js';
import { SearchEngine, type EngineSearchOptions, type SearchMode } from '../search/engine.js';
import type { ToolDoc } from '../search/document.js';

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

export interface FoundTools {
  ranked: RankedTool[];
  requested: SearchMode;
  mode: SearchMode;
  degraded?: string;
}

/** What a snapshot needs from its owner: server descriptions and a fresh search engine per catalog. */
export interface SearchContext {
  serverDescription(server: string): string | undefined;
  newEngine(): SearchEngine;
}

/** Lexical only, no stored state: for callers without a gateway (tests, tools). */
export const PLAIN_SEARCH_CONTEXT: SearchContext = { serverDescription: () => undefined, newEngine: () => new SearchEngine() };

export class MetaSnapshot {
  readonly tools: MetaTool[];
  readonly byKey: ReadonlyMap<string, MetaTool>;
  private synced = false;

  constructor(
    tools: MetaTool[],
    private readonly context: SearchContext = PLAIN_SEARCH_CONTEXT,
    private readonly shared: SearchEngine = context.newEngine(),
  ) {
    this.tools = tools;
    this.byKey = new Map(tools.map((t) => [t.key, t]));
  }

  /** The engine is brought up to date on the first search (listing and capabilities do not need it). */
  get engine(): SearchEngine {
    if (!this.synced) {
      this.shared.sync(this.tools.map((tool) => docOf(tool, this.context.serverDescription(tool.server))));
      this.synced = true;
    }
    return this.shared;
  }

  /** Lexical search, synchronous (fallback suggestions, error hints). */
  search(query: string, options: { limit: number; server?: string; filter?: (tool: MetaTool) => boolean }): RankedTool[] {
    const filter = options.filter;
    const hits = this.engine.lexical.search(query, {
      limit: options.limit,
      ...(options.server !== undefined && { server: options.server }),
      ...(filter && { filter: (doc: ToolDoc) => { const t = this.byKey.get(doc.key); return t !== undefined && filter(t); } }),
    });
    return this.rank(hits);
  }

  /** Search in any mode with priors and filters; semantic modes fall back to lexical and say why. */
  async find(query: string, options: Omit<EngineSearchOptions, 'filter' | 'prior'> & { filter?: (tool: MetaTool) => boolean; prior?: (tool: MetaTool) => number }): Promise<FoundTools> {
    const { filter, prior, ...rest } = options;
    const result = await this.engine.search(query, {
      ...rest,
      ...(filter && { filter: (doc: ToolDoc) => { const t = this.byKey.get(doc.key); return t !== undefined && filter(t); } }),
      ...(prior && { prior: (key: string) => { const t = this.byKey.get(key); return t ? prior(t) : 1; } }),
    });
    return { ranked: this.rank(result.hits), requested: result.requested, mode: result.mode, ...(result.degraded !== undefined && { degraded: result.degraded }) };
  }

  private rank(hits: ReadonlyArray<{ key: string; score: number }>): RankedTool[] {
    return hits.flatMap((hit) => {
      const tool = this.byKey.get(hit.key);
      return tool ? [{ tool, score: hit.score }] : [];
    });
  }

  get size(): number {
    return this.tools.length;
  }
}

function docOf(tool: MetaTool, serverDescription: string | undefined): ToolDoc {
  const def = tool.definition;
  return {
    key: tool.key,
    server: tool.server,
    name: tool.originalName,
    ...(typeof def.title === 'string' && def.title !== tool.originalName && { title: def.title }),
    description: tool.description,
    inputSchema: def.inputSchema,
    ...(serverDescription !== undefined && { serverDescription }),
  };
}

/** The tools of a catalog as meta mode sees them. */
export function metaToolsOf(catalog: Catalog): MetaTool[] {
  const definitions = new Map(catalog.tools().map((t) => [t.name as string, t]));
  const tools: MetaTool[] = catalog.toolTable.entries().flatMap((entry) => {
    const definition = definitions.get(entry.exposed);
    if (!definition) return [];
    const description = typeof definition.description === 'string' ? definition.description : '';
    return [{ key: entry.exposed, server: entry.serverKey, originalName: entry.originalName, description, category: '', definition }];
  });
  // A server's tools are categorised together: what most of them are about counts for each.
  const byServer = new Map<string, MetaTool[]>();
  for (const tool of tools) {
    const list = byServer.get(tool.server);
    if (list) list.push(tool);
    else byServer.set(tool.server, [tool]);
  }
  for (const [server, list] of byServer) {
    const categories = inferCategories(list.map((t) => ({ name: t.originalName, description: t.description })), server);
    list.forEach((t, i) => (t.category = categories[i]!));
  }
  return tools;
}

const snapshots = new WeakMap<Catalog, { source: Entry[]; snapshot: MetaSnapshot; engine: SearchEngine }>();

/** The snapshot of a catalog, rebuilt only when its tool list changed; the engine is carried over. */
export function snapshotOf(catalog: Catalog, context: SearchContext = PLAIN_SEARCH_CONTEXT): MetaSnapshot {
  const source = catalog.tools();
  const cached = snapshots.get(catalog);
  if (cached && cached.source === source) return cached.snapshot;
  const engine = cached?.engine ?? context.newEngine();
  const snapshot = new MetaSnapshot(metaToolsOf(catalog), context, engine);
  snapshots.set(catalog, { source, snapshot, engine });
  return snapshot;
}
