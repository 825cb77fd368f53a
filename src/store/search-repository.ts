// Owns what tool search keeps on disk: embedding vectors keyed by model and content hash (a tool is
// re-embedded only when its text changes), and the learned queries per tool (learning from use) with
// their weights, which fade with a half-life and are capped per tool.
import type Database from 'better-sqlite3';
import { StoreError } from './errors.js';

/** Embedding vectors behind an interface a Postgres store can implement too. */
export interface VectorRepository {
  /** The stored vectors of `model` among `hashes` (missing ones are absent from the map). */
  get(model: string, hashes: readonly string[]): Map<string, Float32Array>;
  /** Stores vectors (one transaction); an existing (model, hash) is replaced. */
  put(model: string, entries: ReadonlyArray<{ hash: string; vector: Float32Array }>): void;
  /** Number of stored vectors, of one model or of all. */
  count(model?: string): number;
}

export interface LearnedQuery {
  server: string;
  tool: string;
  query: string;
  /** The weight now, after fading. */
  weight: number;
  updatedAt: number;
}

/** Learned queries behind an interface a Postgres store can implement too. */
export interface LearnedQueryRepository {
  /** Adds `weight` to the query's faded weight (a new query starts at `weight`); returns the new weight. */
  add(server: string, tool: string, query: string, weight: number): number;
  /** Every learned query with its faded weight; queries faded under the floor are deleted. */
  all(): LearnedQuery[];
  /** The learned queries of one tool, heaviest first. */
  of(server: string, tool: string): LearnedQuery[];
  /** Deletes the learned queries of a tool, of a server, or all; returns how many. */
  clear(filter?: { server?: string; tool?: string }): number;
}

export interface LearnedQueryOptions {
  clock: () => number;
  /** Days after which a weight has halved (default 30). */
  halfLifeDays?: number;
  /** Most queries kept per tool; the lightest go first (default 100). */
  capPerTool?: number;
  /** Weights that fade under this are deleted (default 0.05). */
  floor?: number;
}

const DAY_MS = 86_400_000;
const CHUNK = 500; // bound parameters per statement stay far under SQLite's limit

export class SqliteVectorRepository implements VectorRepository {
  constructor(private readonly db: Database.Database, private readonly clock: () => number) {}

  get(model: string, hashes: readonly string[]): Map<string, Float32Array> {
    const found = new Map<string, Float32Array>();
    for (let i = 0; i < hashes.length; i += CHUNK) {
      const part = hashes.slice(i, i + CHUNK);
      const rows = this.db
        .prepare(`SELECT content_hash AS hash, dimensions, vector FROM search_vectors WHERE model = ? AND content_hash IN (${part.map(() => '?').join(',')})`)
        .all(model, ...part) as Array<{ hash: string; dimensions: number; vector: Buffer }>;
      for (const row of rows) {
        if (row.vector.byteLength !== row.dimensions * 4) continue; // damaged row: re-embedded and replaced
        const copy = new Float32Array(row.dimensions);
        new Uint8Array(copy.buffer).set(row.vector);
        found.set(row.hash, copy);
      }
    }
    return found;
  }

  put(model: string, entries: ReadonlyArray<{ hash: string; vector: Float32Array }>): void {
    if (!model) throw new StoreError('invalid_input', 'vectors need a model name');
    const insert = this.db.prepare('INSERT OR REPLACE INTO search_vectors (model, content_hash, dimensions, vector, created_at) VALUES (?, ?, ?, ?, ?)');
    const now = this.clock();
    this.db.transaction(() => {
      for (const { hash, vector } of entries) {
        insert.run(model, hash, vector.length, Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength), now);
      }
    })();
  }

  count(model?: string): number {
    const row = model === undefined
      ? (this.db.prepare('SELECT COUNT(*) AS n FROM search_vectors').get() as { n: number })
      : (this.db.prepare('SELECT COUNT(*) AS n FROM search_vectors WHERE model = ?').get(model) as { n: number });
    return row.n;
  }
}

export class SqliteLearnedQueryRepository implements LearnedQueryRepository {
  private readonly clock: () => number;
  private readonly halfLifeMs: number;
  private readonly cap: number;
  private readonly floor: number;

  constructor(private readonly db: Database.Database, options: LearnedQueryOptions) {
    this.clock = options.clock;
    const halfLifeDays = options.halfLifeDays ?? 30;
    if (!(halfLifeDays > 0)) throw new StoreError('invalid_input', `learned queries: halfLifeDays must be > 0, got ${halfLifeDays}`);
    this.halfLifeMs = halfLifeDays * DAY_MS;
    this.cap = options.capPerTool ?? 100;
    this.floor = options.floor ?? 0.05;
  }

  private faded(weight: number, updatedAt: number, now: number): number {
    return weight * 0.5 ** (Math.max(0, now - updatedAt) / this.halfLifeMs);
  }

  add(server: string, tool: string, query: string, weight: number): number {
    if (!server || !tool || !query.trim()) throw new StoreError('invalid_input', 'a learned query needs a server, a tool and a non-empty query');
    if (!(weight > 0) || !Number.isFinite(weight)) throw new StoreError('invalid_input', `a learned query's weight must be a positive number, got ${weight}`);
    const now = this.clock();
    return this.db.transaction(() => {
      const old = this.db.prepare('SELECT weight, updated_at AS updatedAt FROM search_queries WHERE server = ? AND tool = ? AND query = ?').get(server, tool, query) as
        | { weight: number; updatedAt: number }
        | undefined;
      const next = (old ? this.faded(old.weight, old.updatedAt, now) : 0) + weight;
      this.db.prepare('INSERT OR REPLACE INTO search_queries (server, tool, query, weight, updated_at) VALUES (?, ?, ?, ?, ?)').run(server, tool, query, next, now);
      const rows = this.db.prepare('SELECT query, weight, updated_at AS updatedAt FROM search_queries WHERE server = ? AND tool = ?').all(server, tool) as Array<{ query: string; weight: number; updatedAt: number }>;
      if (rows.length > this.cap) {
        // The query just taught stays: the lightest of the others make room.
        const others = rows.filter((r) => r.query !== query);
        const lightest = others.map((r) => ({ query: r.query, w: this.faded(r.weight, r.updatedAt, now) })).sort((a, b) => a.w - b.w).slice(0, rows.length - this.cap);
        const drop = this.db.prepare('DELETE FROM search_queries WHERE server = ? AND tool = ? AND query = ?');
        for (const r of lightest) drop.run(server, tool, r.query);
      }
      return next;
    }).immediate();
  }

  all(): LearnedQuery[] {
    const now = this.clock();
    const rows = this.db.prepare('SELECT server, tool, query, weight, updated_at AS updatedAt FROM search_queries').all() as LearnedQuery[];
    const kept: LearnedQuery[] = [];
    const gone: LearnedQuery[] = [];
    for (const row of rows) {
      const weight = this.faded(row.weight, row.updatedAt, now);
      (weight < this.floor ? gone : kept).push({ ...row, weight });
    }
    if (gone.length) {
      // Only rows nobody refreshed since they were read (another process may have just taught one again).
      const drop = this.db.prepare('DELETE FROM search_queries WHERE server = ? AND tool = ? AND query = ? AND updated_at = ?');
      this.db.transaction(() => gone.forEach((r) => drop.run(r.server, r.tool, r.query, r.updatedAt)))();
    }
    return kept;
  }

  of(server: string, tool: string): LearnedQuery[] {
    const now = this.clock();
    const rows = this.db.prepare('SELECT server, tool, query, weight, updated_at AS updatedAt FROM search_queries WHERE server = ? AND tool = ?').all(server, tool) as LearnedQuery[];
    return rows.map((r) => ({ ...r, weight: this.faded(r.weight, r.updatedAt, now) })).filter((r) => r.weight >= this.floor).sort((a, b) => b.weight - a.weight);
  }

  clear(filter: { server?: string; tool?: string } = {}): number {
    if (filter.tool !== undefined && filter.server !== undefined) return this.db.prepare('DELETE FROM search_queries WHERE server = ? AND tool = ?').run(filter.server, filter.tool).changes;
    if (filter.server !== undefined) return this.db.prepare('DELETE FROM search_queries WHERE server = ?').run(filter.server).changes;
    if (filter.tool !== undefined) return this.db.prepare('DELETE FROM search_queries WHERE tool = ?').run(filter.tool).changes;
    return this.db.prepare('DELETE FROM search_queries').run().changes;
  }
}
