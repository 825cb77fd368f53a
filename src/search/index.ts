// Owns the tool index: an in-memory inverted index over catalog tools ranked with BM25F (per-field
// weights and length normalisation, one saturation per term across fields), with typo, prefix and
// synonym expansion from query.ts and learned queries per tool from expansions.ts. Adding, updating
// or removing one tool touches only that tool's postings. A tool's terms come from rows.ts,
// postings live in flat typed arrays (postings.ts), the query scan and top-k are in scan.ts.
import { AbbreviationTable } from './abbreviations.js';
import type { Entry } from './index-entry.js';
import { FIELD_COUNT, FIELDS, fieldTexts, type Field, type ToolDoc } from './document.js';
import { ExpansionStore, DEFAULT_EXPANSION_CAP } from './expansions.js';
import { DEFAULT_KEYWORD_OPTIONS, extractKeywords, type KeywordOptions } from './keywords.js';
import { Vocabulary } from './fuzzy.js';
import { PostingList } from './postings.js';
import { DEFAULT_QUERY_OPTIONS, QueryAnalyzer, isPhrase, type QueryOptions } from './query.js';
import { RowCollector } from './rows.js';
import { scoreQuery, type ScanContext } from './scan.js';
import { capPerServer, namedServers } from './server-cap.js';
import { internedCount, splitWords } from './tokenize.js';

/** The words of a tool's own text (name, description, parameters, enum values) for abbreviation learning. */
function toolWords(doc: ToolDoc): string[] {
  const texts = fieldTexts(doc, false);
  return ['name', 'description', 'params', 'enums'].flatMap((f) => splitWords(texts[FIELDS.indexOf(f as Field)]!));
}

export type { ToolDoc } from './document.js';

export interface SearchHit {
  key: string;
  server: string;
  name: string;
  score: number;
}

export interface SearchOptions {
  limit?: number;
  server?: string;
  /** Only tools this accepts are ranked (e.g. a category filter); checked once per candidate tool. */
  filter?: (doc: ToolDoc) => boolean;
}

export interface IndexOptions {
  k1: number;
  weights: Record<Field, number>;
  b: Record<Field, number>;
  query: QueryOptions;
  /** Filler words of a request scaled down by the catalog's document frequency (keywords.ts). */
  keywords: KeywordOptions;
  expansionCap: number;
  /** Share of the best score on a tool's server added to the tool (tools of a matching server rise together). */
  serverBoost: number;
  /** Weight of a pair of adjacent query words found adjacent in a tool's name or description (0: off). */
  phraseWeight: number;
  /**
   * A tool's score is multiplied by 1 + nameCoverage x (the idf-weighted share of its name's words
   * the query matches): a request that covers the whole name beats one that matches a single word.
   */
  nameCoverage: number;
  /**
   * At most this many tools of one server in the returned top k (0: off), unless the request names
   * the server (every word of its key is in the request). Capped tools are not dropped: they fill
   * the list after every other candidate. Guards against one server crowding out the rest.
   */
  maxPerServer: number;
  /** Split names written as one lower-case run into the words of the tool's own text (joined-words.ts). */
  splitJoinedNames: boolean;
}

export const DEFAULT_INDEX_OPTIONS: IndexOptions = {
  k1: 1.2,
  weights: { name: 3, server: 0.6, description: 1, params: 0.4, enums: 0.2, learned: 1, serverInfo: 0.6 },
  b: { name: 0.5, server: 0.5, description: 0.6, params: 0.5, enums: 0.5, learned: 0.3, serverInfo: 0.5 },
  query: DEFAULT_QUERY_OPTIONS,
  keywords: DEFAULT_KEYWORD_OPTIONS,
  expansionCap: DEFAULT_EXPANSION_CAP,
  serverBoost: 0.2,
  phraseWeight: 0,
  nameCoverage: 0.3,
  maxPerServer: 0,
  splitJoinedNames: false,
};

export class ToolIndex {
  private readonly entries = new Map<string, Entry>();
  private readonly bySlot: Array<Entry | undefined> = [];
  private readonly postings = new Map<string, PostingList>();
  private readonly vocab = new Vocabulary();
  private readonly abbreviations: AbbreviationTable;
  private readonly learnsAbbreviations: boolean;
  private readonly analyzer: QueryAnalyzer;
  private readonly totalLengths = new Float64Array(FIELD_COUNT);
  private readonly expansions: ExpansionStore;
  private readonly dirty = new Set<string>();
  private readonly options: IndexOptions;
  private readonly weights: Float64Array;
  private readonly bs: Float64Array;
  private readonly freeSlots: number[] = [];
  private readonly servers = new Map<string, { id: number; refs: number }>();
  private readonly freeServers: number[] = [];
  private serverCount = 0;
  private seq = 0;
  // Average field lengths used for normalisation: a snapshot refreshed only when the true averages
  // drift by more than 2%, so cached term weights stay valid across small catalog changes.
  private readonly avg = new Float64Array(FIELD_COUNT).fill(1);
  private stamp = 0;
  private addsSinceSearch = 0;
  private refreshAll = false;
  private readonly listById: Array<PostingList | undefined> = [];
  private readonly rows: RowCollector;
  private readonly ctx: ScanContext;

  constructor(options: Partial<IndexOptions> = {}) {
    this.options = { ...DEFAULT_INDEX_OPTIONS, ...options };
    this.weights = Float64Array.from(FIELDS.map((f) => this.options.weights[f]));
    this.bs = Float64Array.from(FIELDS.map((f) => this.options.b[f]));
    this.expansions = new ExpansionStore(this.options.expansionCap);
    this.rows = new RowCollector(this.options.phraseWeight > 0, this.options.splitJoinedNames);
    const q = this.options.query;
    this.abbreviations = new AbbreviationTable({ contractions: q.abbreviationContractions, numeronyms: q.numeronymWeight > 0 });
    this.learnsAbbreviations = q.abbreviationWeight > 0 || q.numeronymWeight > 0;
    this.analyzer = new QueryAnalyzer(this.vocab, q, this.options.phraseWeight, this.learnsAbbreviations ? this.abbreviations : undefined);
    this.ctx = {
      bySlot: this.bySlot,
      serverOf: new Int32Array(64),
      seqOf: new Float64Array(64),
      wordBest: new Float64Array(64),
      total: new Float64Array(64),
      wordTouched: new Int32Array(64),
      touched: new Int32Array(64),
      serverBest: new Float64Array(16),
      verdictAt: new Int32Array(64),
      verdict: new Uint8Array(64),
      pickSlots: new Int32Array(64),
      pickSats: new Float64Array(64),
      weightById: new Float64Array(64),
      queryNo: 0,
      refresh: (list) => this.refresh(list),
      stamp: () => this.stamp,
    };
  }

  get size(): number {
    return this.entries.size;
  }

  has(key: string): boolean {
    return this.entries.has(key);
  }

  /** Index a tool; a tool with the same key is replaced. */
  add(doc: ToolDoc): void {
    const previous = this.entries.get(doc.key);
    if (previous) this.unindex(previous);
    const { terms, tfs, lengths, nameRows } = this.rows.collect(doc, this.expansions.termFrequencies(doc.key));
    if (this.learnsAbbreviations) this.abbreviations.add(doc.key, toolWords(doc), (w) => this.vocab.has(w));
    const slot = previous ? previous.slot : (this.freeSlots.pop() ?? this.bySlot.length);
    const entry: Entry = {
      doc,
      seq: previous ? previous.seq : this.seq++,
      slot,
      server: this.retainServer(doc.server),
      lengths,
      terms,
      lists: new Array<PostingList>(terms.length),
      tfs,
      nameRows,
      at: new Int32Array(terms.length),
      norm: new Float64Array(FIELD_COUNT),
      normStamp: -1,
    };
    this.entries.set(doc.key, entry);
    this.bySlot[slot] = entry;
    const ctx = this.ctx;
    if (slot >= ctx.serverOf.length) {
      const serverOf = new Int32Array(ctx.serverOf.length * 2);
      serverOf.set(ctx.serverOf);
      const seqOf = new Float64Array(ctx.seqOf.length * 2);
      seqOf.set(ctx.seqOf);
      ctx.serverOf = serverOf;
      ctx.seqOf = seqOf;
    }
    ctx.serverOf[slot] = entry.server;
    ctx.seqOf[slot] = entry.seq;
    for (let f = 0; f < FIELD_COUNT; f++) this.totalLengths[f]! += lengths[f]!;
    // A bulk load (many adds before the next search) leaves weights to one pass in prepare().
    const bulk = ++this.addsSinceSearch > Math.max(256, this.entries.size / 4);
    if (bulk) this.refreshAll = true;
    for (let k = 0; k < terms.length; k++) {
      const t = terms[k]!;
      let list = this.listById[t.id];
      if (list === undefined) {
        this.listById[t.id] = list = new PostingList(t.id, this.stamp);
        this.postings.set(t.text, list);
        if (!isPhrase(t.text)) this.vocab.add(t.text);
      }
      entry.lists[k] = list;
      entry.at[k] = list.push(slot, k, bulk ? 0 : this.saturation(entry, k));
    }
    this.dirty.delete(doc.key);
  }

  /** Same as add: replace the tool's postings (only this tool is touched). */
  update(doc: ToolDoc): void {
    this.add(doc);
  }

  /** Drop a tool and its learned queries; returns whether it was indexed. */
  remove(key: string): boolean {
    const entry = this.entries.get(key);
    if (!entry) return false;
    this.unindex(entry);
    this.bySlot[entry.slot] = undefined;
    this.freeSlots.push(entry.slot);
    this.expansions.remove(key);
    this.abbreviations.remove(key);
    this.dirty.delete(key);
    return true;
  }

  /**
   * Learning from use: attach a query that led to this tool. Stored per tool (capped, lowest weight
   * evicted) and folded into the tool's `learned` field before the next search.
   */
  addExpansion(key: string, query: string, weight = 1): boolean {
    if (!this.entries.has(key)) return false;
    const added = this.expansions.add(key, query, weight);
    if (added) this.dirty.add(key);
    return added;
  }

  /** Learned queries of one tool, e.g. to persist them. */
  expansionsOf(key: string): Array<{ query: string; weight: number }> {
    return this.expansions.entries(key);
  }

  /** Fade all learned queries by `factor` (0..1); tools whose learned field changed are re-indexed lazily. */
  decayExpansions(factor: number): void {
    for (const key of this.expansions.decay(factor)) if (this.entries.has(key)) this.dirty.add(key);
  }

  search(query: string, options: SearchOptions = {}): SearchHit[] {
    this.prepare();
    const limit = options.limit ?? 10;
    if (this.entries.size === 0 || limit <= 0) return [];
    let server = -1;
    if (options.server !== undefined) {
      const known = this.servers.get(options.server);
      if (!known) return [];
      server = known.id;
    }
    const words = extractKeywords(this.analyzer.analyze(query), (t) => this.postings.get(t)?.len ?? 0, this.entries.size, this.options.keywords);
    const cap = this.options.maxPerServer;
    const capped = cap > 0 && server < 0 && this.servers.size > 1;
    let ranked = scoreQuery(this.ctx, words, this.postings, this.entries.size, {
      limit: capped ? Math.max(limit * 3, limit + 20) : limit,
      server,
      filter: options.filter,
      serverBoost: this.options.serverBoost,
      nameCoverage: this.options.nameCoverage,
    });
    if (capped) ranked = capPerServer(ranked, cap, limit, namedServers(words, this.servers.keys()));
    return ranked.map(({ entry, score }) => ({ key: entry.doc.key, server: entry.doc.server, name: entry.doc.name, score }));
  }

  /** BM25F saturated weight of an entry's k-th term: field-weighted, length-normalised, saturated once. */
  private saturation(entry: Entry, k: number): number {
    if (entry.normStamp !== this.stamp) {
      for (let f = 0; f < FIELD_COUNT; f++) {
        entry.norm[f] = this.weights[f]! / (1 - this.bs[f]! + (this.bs[f]! * entry.lengths[f]!) / this.avg[f]!);
      }
      entry.normStamp = this.stamp;
    }
    const tfs = entry.tfs;
    const norm = entry.norm;
    const base = k * FIELD_COUNT;
    let pseudo = 0;
    for (let f = 0; f < FIELD_COUNT; f++) {
      const tf = tfs[base + f]!;
      if (tf !== 0) pseudo += tf * norm[f]!;
    }
    return pseudo / (this.options.k1 + pseudo);
  }

  /** Recomputes a list's cached weights after the length snapshot changed. */
  private refresh(list: PostingList): void {
    const { slots, refs, sats } = list;
    let max = 0;
    for (let i = 0; i < list.len; i++) {
      const sat = this.saturation(this.bySlot[slots[i]!]!, refs[i]!);
      sats[i] = sat;
      if (sat > max) max = sat;
    }
    list.maxSat = max;
    list.stamp = this.stamp;
  }

  /** Folds pending learned queries in, refreshes the length snapshot if it drifted, sizes scratch arrays. */
  private prepare(): void {
    if (this.dirty.size > 0) {
      for (const key of [...this.dirty]) {
        const entry = this.entries.get(key);
        if (entry) this.add(entry.doc);
      }
      this.dirty.clear();
    }
    const n = this.entries.size || 1;
    let drift = false;
    for (let f = 0; f < FIELD_COUNT; f++) {
      const real = this.totalLengths[f]! / n || 1;
      if (Math.abs(real - this.avg[f]!) > 0.02 * this.avg[f]!) drift = true;
    }
    if (drift) {
      for (let f = 0; f < FIELD_COUNT; f++) this.avg[f] = this.totalLengths[f]! / n || 1;
      this.stamp++;
    }
    if (drift || this.refreshAll) {
      // Recompute every cached weight now rather than lazily inside the next queries, which would
      // put the cost into their latency. Tool by tool: each tool's rows are read in order.
      for (const list of this.postings.values()) {
        list.maxSat = 0;
        list.stamp = this.stamp;
      }
      for (const entry of this.entries.values()) {
        for (let k = 0; k < entry.terms.length; k++) {
          const sat = this.saturation(entry, k);
          const list = entry.lists[k]!;
          list.sats[entry.at[k]!] = sat;
          if (sat > list.maxSat) list.maxSat = sat;
        }
      }
      this.refreshAll = false;
    }
    this.addsSinceSearch = 0;
    const ctx = this.ctx;
    if (ctx.total.length < this.bySlot.length) {
      const size = Math.max(64, this.bySlot.length * 2);
      ctx.wordBest = new Float64Array(size);
      ctx.total = new Float64Array(size);
      ctx.wordTouched = new Int32Array(size);
      ctx.touched = new Int32Array(size);
      ctx.verdictAt = new Int32Array(size);
      ctx.verdict = new Uint8Array(size);
    }
    if (ctx.weightById.length < internedCount()) ctx.weightById = new Float64Array(internedCount() * 2);
    if (ctx.serverBest.length < this.serverCount) ctx.serverBest = new Float64Array(this.serverCount * 2);
  }

  private retainServer(name: string): number {
    let s = this.servers.get(name);
    if (!s) this.servers.set(name, (s = { id: this.freeServers.pop() ?? this.serverCount++, refs: 0 }));
    s.refs++;
    return s.id;
  }

  private unindex(entry: Entry): void {
    const { terms, lists, at } = entry;
    for (let k = 0; k < terms.length; k++) {
      const list = lists[k]!;
      const pos = at[k]!;
      if (list.removeAt(pos) >= 0) this.bySlot[list.slots[pos]!]!.at[list.refs[pos]!] = pos;
      if (list.len === 0) {
        const t = terms[k]!;
        this.listById[t.id] = undefined;
        this.postings.delete(t.text);
        if (!isPhrase(t.text)) this.vocab.delete(t.text);
      }
    }
    for (let f = 0; f < FIELD_COUNT; f++) this.totalLengths[f]! -= entry.lengths[f]!;
    const s = this.servers.get(entry.doc.server)!;
    if (--s.refs === 0) {
      this.servers.delete(entry.doc.server);
      this.freeServers.push(s.id);
    }
    this.entries.delete(entry.doc.key);
  }
}

