// Owns the tool index: an in-memory inverted index over catalog tools ranked with BM25F (per-field
// weights and length normalisation, one saturation per term across fields), with typo, prefix and
// synonym expansion from query.ts and learned queries per tool from expansions.ts. Adding, updating
// or removing one tool touches only that tool's postings.
import { FIELD_COUNT, FIELDS, LEARNED, fieldTexts, type Field, type ToolDoc } from './document.js';
import { ExpansionStore, DEFAULT_EXPANSION_CAP } from './expansions.js';
import { Vocabulary } from './fuzzy.js';
import { analyzeQuery, DEFAULT_QUERY_OPTIONS, type QueryOptions } from './query.js';
import { terms } from './tokenize.js';

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
  expansionCap: number;
  /** Share of the best score on a tool's server added to the tool (tools of a matching server rise together). */
  serverBoost: number;
}

export const DEFAULT_INDEX_OPTIONS: IndexOptions = {
  k1: 1.2,
  weights: { name: 3, server: 0.6, description: 1, params: 0.4, enums: 0.2, learned: 1 },
  b: { name: 0.5, server: 0.5, description: 0.6, params: 0.5, enums: 0.5, learned: 0.3 },
  query: DEFAULT_QUERY_OPTIONS,
  expansionCap: DEFAULT_EXPANSION_CAP,
  serverBoost: 0.2,
};

interface Entry {
  doc: ToolDoc;
  seq: number;
  slot: number;
  lengths: number[];
  items: Posting[];
}

/** One term in one tool: per-field frequencies plus the cached saturated BM25F term weight. */
interface Posting {
  term: string;
  entry: Entry;
  row: number[];
  at: number; // position in its term's list, for O(1) removal
  sat: number;
  stamp: number;
}

export class ToolIndex {
  private readonly entries = new Map<string, Entry>();
  private readonly postings = new Map<string, Posting[]>();
  private readonly vocab = new Vocabulary();
  private readonly totalLengths = new Float64Array(FIELD_COUNT);
  private readonly expansions: ExpansionStore;
  private readonly dirty = new Set<string>();
  private readonly options: IndexOptions;
  private readonly weights: Float64Array;
  private readonly bs: Float64Array;
  private readonly freeSlots: number[] = [];
  private slots = 0;
  private seq = 0;
  // Average field lengths used for normalisation: a snapshot refreshed only when the true averages
  // drift by more than 2%, so cached term weights stay valid across small catalog changes.
  private readonly avg = new Float64Array(FIELD_COUNT).fill(1);
  private stamp = 0;
  private wordBest = new Float64Array(0);
  private total = new Float64Array(0);

  constructor(options: Partial<IndexOptions> = {}) {
    this.options = { ...DEFAULT_INDEX_OPTIONS, ...options };
    this.weights = Float64Array.from(FIELDS.map((f) => this.options.weights[f]));
    this.bs = Float64Array.from(FIELDS.map((f) => this.options.b[f]));
    this.expansions = new ExpansionStore(this.options.expansionCap);
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
    const rows = new Map<string, number[]>();
    const lengths = zeros();
    const rowOf = (t: string) => {
      let row = rows.get(t);
      if (!row) rows.set(t, (row = zeros()));
      return row;
    };
    fieldTexts(doc).forEach((text, f) => {
      const ts = terms(text);
      lengths[f] = ts.length;
      for (const t of ts) rowOf(t)[f]! += 1;
    });
    for (const [t, w] of this.expansions.termFrequencies(doc.key)) {
      rowOf(t)[LEARNED] = w;
      lengths[LEARNED]! += w;
    }
    const slot = previous ? previous.slot : (this.freeSlots.pop() ?? this.slots++);
    const entry: Entry = { doc, seq: previous ? previous.seq : this.seq++, slot, lengths, items: [] };
    this.entries.set(doc.key, entry);
    for (let f = 0; f < FIELD_COUNT; f++) this.totalLengths[f]! += lengths[f]!;
    for (const [t, row] of rows) {
      let list = this.postings.get(t);
      if (!list) this.postings.set(t, (list = []));
      const item: Posting = { term: t, entry, row, at: list.length, sat: 0, stamp: -1 };
      list.push(item);
      entry.items.push(item);
      this.vocab.retain(t);
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
    this.freeSlots.push(entry.slot);
    this.expansions.remove(key);
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
    const n = this.entries.size;
    if (n === 0 || limit <= 0) return [];
    const { wordBest, total } = this;
    const touched: Entry[] = [];
    const filter = options.filter;
    const verdicts = new Map<Entry, boolean>();
    const accepted = (entry: Entry): boolean => {
      let ok = verdicts.get(entry);
      if (ok === undefined) verdicts.set(entry, (ok = filter!(entry.doc)));
      return ok;
    };
    for (const word of analyzeQuery(query, this.vocab, this.options.query)) {
      const wordTouched: Entry[] = [];
      for (const [term, qw] of word.alternatives) {
        const list = this.postings.get(term);
        if (!list) continue;
        const factor = qw * Math.log(1 + (n - list.length + 0.5) / (list.length + 0.5));
        for (const item of list) {
          const entry = item.entry;
          if (options.server !== undefined && entry.doc.server !== options.server) continue;
          if (filter !== undefined && !accepted(entry)) continue;
          if (item.stamp !== this.stamp) this.saturate(item);
          const s = factor * item.sat;
          const slot = entry.slot;
          if (wordBest[slot] === 0) wordTouched.push(entry);
          if (s > wordBest[slot]!) wordBest[slot] = s;
        }
      }
      for (const entry of wordTouched) {
        if (total[entry.slot] === 0) touched.push(entry);
        total[entry.slot]! += wordBest[entry.slot]!;
        wordBest[entry.slot] = 0;
      }
    }
    if (this.options.serverBoost > 0) {
      const best = new Map<string, number>();
      for (const e of touched) if (total[e.slot]! > (best.get(e.doc.server) ?? 0)) best.set(e.doc.server, total[e.slot]!);
      for (const e of touched) total[e.slot]! += this.options.serverBoost * best.get(e.doc.server)!;
    }
    const top = topK(touched, total, limit);
    const hits = top.map((e) => ({ key: e.doc.key, server: e.doc.server, name: e.doc.name, score: total[e.slot]! }));
    for (const e of touched) total[e.slot] = 0;
    return hits;
  }

  /** BM25F: field-weighted, length-normalised frequency, saturated once across fields. */
  private saturate(item: Posting): void {
    let pseudo = 0;
    const { row, entry } = item;
    for (let f = 0; f < FIELD_COUNT; f++) {
      const tf = row[f]!;
      if (tf !== 0) pseudo += (this.weights[f]! * tf) / (1 - this.bs[f]! + (this.bs[f]! * entry.lengths[f]!) / this.avg[f]!);
    }
    item.sat = pseudo / (this.options.k1 + pseudo);
    item.stamp = this.stamp;
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
    if (this.wordBest.length < this.slots) {
      const size = Math.max(64, this.slots * 2);
      this.wordBest = new Float64Array(size);
      this.total = new Float64Array(size);
    }
  }

  private unindex(entry: Entry): void {
    for (const item of entry.items) {
      const t = item.term;
      const list = this.postings.get(t)!;
      const last = list.pop()!;
      if (last !== item) {
        list[item.at] = last;
        last.at = item.at;
      }
      if (list.length === 0) this.postings.delete(t);
      this.vocab.release(t);
    }
    for (let f = 0; f < FIELD_COUNT; f++) this.totalLengths[f]! -= entry.lengths[f]!;
    this.entries.delete(entry.doc.key);
  }
}

/** A per-field row (plain arrays: far cheaper to allocate than typed arrays). */
function zeros(): number[] {
  return [0, 0, 0, 0, 0, 0].slice(0, FIELD_COUNT);
}

/** Highest scores first; ties keep insertion order (older tools first). */
function topK(candidates: Entry[], total: Float64Array, k: number): Entry[] {
  const better = (a: Entry, b: Entry) => total[a.slot]! > total[b.slot]! || (total[a.slot] === total[b.slot] && a.seq < b.seq);
  const top: Entry[] = [];
  for (const e of candidates) {
    if (top.length === k && !better(e, top[k - 1]!)) continue;
    if (top.length === k) top.pop();
    let i = top.length;
    top.push(e);
    for (; i > 0 && better(e, top[i - 1]!); i--) top[i] = top[i - 1]!;
    top[i] = e;
  }
  return top;
}
