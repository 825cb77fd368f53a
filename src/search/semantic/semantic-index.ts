// Owns the semantic side of one catalog's search: which tools need a vector (by the hash of their
// embedding text), filling them from the vector cache or the provider in the background, embedding
// queries (with a small cache), and knowing when it cannot answer (provider down, still building) so
// the caller can fall back to lexical search and say why.
import { createHash } from 'node:crypto';
import type { ToolDoc } from '../document.js';
import { EmbeddingError, type EmbeddingProvider } from './provider.js';
import { VectorIndex, type VectorHit } from './vectors.js';

/** Where vectors persist between runs (the store implements it). */
export interface VectorCache {
  get(model: string, hashes: readonly string[]): Map<string, Float32Array>;
  put(model: string, entries: ReadonlyArray<{ hash: string; vector: Float32Array }>): void;
}

export interface SemanticStatus {
  model: string;
  endpoint: string;
  tools: number;
  embedded: number;
  pending: number;
  building: boolean;
  lastError?: string;
  lastErrorAt?: number;
  /** The vector store failed (vectors still work in memory). */
  cacheError?: string;
}

export interface EmbedReport {
  embedded: number;
  fromCache: number;
  requested: number;
  tools: number;
}

/** Why semantic search could not answer; search falls back to lexical and reports this. */
export class SemanticUnavailable extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'SemanticUnavailable';
  }
}

const MAX_TEXT = 2000;
const QUERY_CACHE = 256;
/** After a provider failure, searches fall back at once for this long instead of waiting on it again. */
const FAILURE_COOLDOWN_MS = 30_000;

/** The text a tool is embedded from: names, title, description and parameters, cut to a bounded size. */
export function embeddingText(doc: ToolDoc): string {
  const props = (doc.inputSchema as { properties?: Record<string, { description?: unknown }> } | undefined)?.properties;
  const params = props && typeof props === 'object'
    ? Object.entries(props).map(([name, p]) => (typeof p?.description === 'string' ? `${name} (${p.description})` : name)).join(', ')
    : '';
  const head = [doc.title, doc.name].filter(Boolean).join(' / ');
  const text = `${doc.server}: ${head}. ${doc.description ?? ''}${params ? `\nParameters: ${params}` : ''}`;
  return text.length > MAX_TEXT ? text.slice(0, MAX_TEXT) : text;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

export class SemanticIndex {
  private readonly vectors = new VectorIndex();
  /** key -> [hash, text] of every tool that should have a vector. */
  private readonly wanted = new Map<string, { hash: string; text: string }>();
  private readonly queryVectors = new Map<string, Float32Array>();
  private building: Promise<EmbedReport> | undefined;
  private lastError: { message: string; at: number } | undefined;
  private cacheError: string | undefined;

  constructor(
    readonly provider: EmbeddingProvider,
    private readonly cache: VectorCache | undefined,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Makes the wanted set exactly `docs` (only changed texts become pending; gone tools are dropped). */
  sync(docs: readonly ToolDoc[]): void {
    const seen = new Set<string>();
    for (const doc of docs) {
      seen.add(doc.key);
      const text = embeddingText(doc);
      const hash = sha256(text);
      if (this.wanted.get(doc.key)?.hash !== hash) this.wanted.set(doc.key, { hash, text });
    }
    for (const key of [...this.wanted.keys()]) {
      if (seen.has(key)) continue;
      this.wanted.delete(key);
      this.vectors.delete(key);
    }
  }

  get pending(): number {
    let n = 0;
    for (const [key, { hash }] of this.wanted) if (this.vectors.hashOf(key) !== hash) n++;
    return n;
  }

  status(): SemanticStatus {
    const pending = this.pending;
    return {
      model: this.provider.model,
      endpoint: this.provider.endpoint,
      tools: this.wanted.size,
      embedded: this.wanted.size - pending,
      pending,
      building: this.building !== undefined,
      ...(this.lastError && { lastError: this.lastError.message, lastErrorAt: this.lastError.at }),
      ...(this.cacheError && { cacheError: this.cacheError }),
    };
  }

  /**
   * Gives every wanted tool a vector: from the cache when its text was embedded before, else from the
   * provider (then cached). `force` re-asks the provider for every tool. One run at a time; a second
   * caller shares the running one.
   */
  embedAll(options: { force?: boolean; onProgress?: (done: number, total: number) => void } = {}): Promise<EmbedReport> {
    if (this.building && !options.force) return this.building;
    const run = this.fill(options.force ?? false, options.onProgress).finally(() => {
      if (this.building === run) this.building = undefined;
    });
    this.building = run;
    return run;
  }

  private async fill(force: boolean, onProgress?: (done: number, total: number) => void): Promise<EmbedReport> {
    const model = this.provider.model;
    const todo = [...this.wanted].filter(([key, { hash }]) => force || this.vectors.hashOf(key) !== hash);
    let fromCache = 0;
    if (!force && this.cache && todo.length) {
      let cached = new Map<string, Float32Array>();
      try {
        cached = this.cache.get(model, todo.map(([, w]) => w.hash));
      } catch (error) {
        this.cacheError = `reading stored vectors failed: ${(error as Error).message}`; // embed them again instead
      }
      const dims = this.vectors.dimensions;
      for (const [key, { hash }] of todo) {
        const vector = cached.get(hash);
        if (vector && (dims < 0 || vector.length === dims)) {
          this.vectors.set(key, hash, vector);
          fromCache++;
        }
      }
    }
    const missing = todo.filter(([key, { hash }]) => force || this.vectors.hashOf(key) !== hash);
    const byHash = new Map<string, string>(); // identical texts are embedded once
    for (const [, { hash, text }] of missing) byHash.set(hash, text);
    const hashes = [...byHash.keys()];
    const step = 64;
    let embedded = 0;
    for (let i = 0; i < hashes.length; i += step) {
      const part = hashes.slice(i, i + step);
      let vectors: Float32Array[];
      try {
        vectors = await this.provider.embed(part.map((h) => byHash.get(h)!));
      } catch (error) {
        this.noteFailure(error);
        throw error;
      }
      const got = new Map(part.map((hash, j) => [hash, vectors[j]!]));
      for (const [key, { hash }] of missing) {
        const vector = got.get(hash);
        if (vector && this.wanted.get(key)?.hash === hash) this.vectors.set(key, hash, vector);
      }
      try {
        this.cache?.put(model, part.map((hash, j) => ({ hash, vector: vectors[j]! })));
      } catch (error) {
        this.cacheError = `storing vectors failed: ${(error as Error).message}`; // they work in memory; re-embedded after a restart
      }
      embedded += part.length;
      onProgress?.(embedded, hashes.length);
    }
    this.lastError = undefined;
    return { embedded, fromCache, requested: hashes.length, tools: this.wanted.size };
  }

  /** Only failures of the endpoint itself (down, slow, 5xx, 429, no key) pause semantic search for everyone. */
  private noteFailure(error: unknown): void {
    const e = error as EmbeddingError;
    const endpointDown = e instanceof EmbeddingError && (e.code !== 'http_error' || (e.status ?? 500) >= 500 || e.status === 429 || e.status === 401 || e.status === 403);
    if (endpointDown) this.lastError = { message: e.message, at: this.clock() };
  }

  private recentFailure(): { message: string; at: number } | undefined {
    return this.lastError && this.clock() - this.lastError.at < FAILURE_COOLDOWN_MS ? this.lastError : undefined;
  }

  /**
   * Cosine top-k for a query. Waits up to `waitMs` for pending tools and for the query's own vector,
   * then throws SemanticUnavailable (still building, the provider failed recently or now, or slow).
   */
  async search(query: string, limit: number, options: { accept?: (key: string) => boolean; waitMs?: number } = {}): Promise<VectorHit[]> {
    const waitMs = options.waitMs ?? 2000;
    const recent = this.recentFailure();
    if (recent) throw new SemanticUnavailable(`embedding provider failed ${Math.round((this.clock() - recent.at) / 1000)} s ago: ${recent.message}`);
    if (this.pending > 0) {
      const run = this.embedAll().then(() => true, () => true);
      const waited = await Promise.race([run, delay(waitMs).then(() => false)]);
      const failed = this.recentFailure();
      if (failed) throw new SemanticUnavailable(failed.message);
      if (!waited) {
        const s = this.status();
        throw new SemanticUnavailable(`semantic index still building (${s.embedded} of ${s.tools} tools embedded)`);
      }
    }
    let vector = this.queryVectors.get(query);
    if (!vector) {
      const asked = this.provider.embed([query]).then(
        ([v]) => v,
        (error: unknown) => {
          this.noteFailure(error);
          throw new SemanticUnavailable((error as Error).message, { cause: error });
        },
      );
      const answer = await Promise.race([asked, delay(waitMs).then(() => undefined)]);
      if (!answer) {
        asked.catch(() => undefined); // its outcome still counts for the cooldown, not for this search
        throw new SemanticUnavailable(`the embedding endpoint did not embed the query within ${waitMs} ms`);
      }
      vector = answer;
      if (this.queryVectors.size >= QUERY_CACHE) this.queryVectors.delete(this.queryVectors.keys().next().value!);
      this.queryVectors.set(query, vector);
    }
    if (this.vectors.size > 0 && vector.length !== this.vectors.dimensions) {
      throw new SemanticUnavailable(`the query vector has ${vector.length} dimensions, the tools' ${this.vectors.dimensions}: did the model change? Run switchboard embed --force`);
    }
    return this.vectors.search(vector, limit, options.accept);
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

