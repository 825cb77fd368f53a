// Owns scoring one analysed query against the posting lists: term-at-a-time accumulation into
// per-slot scratch arrays (a tool scores each query word by its best alternative term), the
// server/filter restriction, the server boost and exact top-k selection. No per-query maps: the
// scratch arrays belong to the index and are reset for the touched slots only.
import type { Entry } from './index-entry.js';
import type { PostingList } from './postings.js';
import type { QueryWord } from './query.js';

/** Scratch state owned by one index, reused by every query. */
export interface ScanContext {
  bySlot: ReadonlyArray<Entry | undefined>;
  serverOf: Int32Array; // per slot: the tool's server id
  seqOf: Float64Array; // per slot: catalog order (ties)
  wordBest: Float64Array;
  total: Float64Array;
  wordTouched: Int32Array;
  touched: Int32Array;
  serverBest: Float64Array;
  verdictAt: Int32Array; // query number the verdict was taken in
  verdict: Uint8Array; // 1 = the tool passes the query's server/filter restriction
  weightById: Float64Array; // per term id: the best weight the query gives the term (0 elsewhere)
  pickSlots: Int32Array; // the allowed part of one posting list (restricted queries)
  pickSats: Float64Array;
  queryNo: number;
  refresh: (list: PostingList) => void;
  stamp: () => number;
}

export interface ScanOptions {
  limit: number;
  /** Server id to restrict to, or -1. */
  server: number;
  filter: ((doc: Entry['doc']) => boolean) | undefined;
  serverBoost: number;
  nameCoverage: number;
}

export interface Ranked {
  entry: Entry;
  score: number;
}

/** `idf = ln(1 + (N - df + 0.5) / (df + 0.5))`. */
export function idf(n: number, df: number): number {
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

export function scoreQuery(ctx: ScanContext, words: readonly QueryWord[], postings: ReadonlyMap<string, PostingList>, n: number, o: ScanOptions): Ranked[] {
  const { wordBest, total, wordTouched, touched, bySlot } = ctx;
  const stamp = ctx.stamp();
  const restricted = o.server >= 0 || o.filter !== undefined;
  const queryNo = ++ctx.queryNo;
  const allowed = (slot: number): boolean => {
    if (ctx.verdictAt[slot] !== queryNo) {
      ctx.verdictAt[slot] = queryNo;
      ctx.verdict[slot] = (o.server < 0 || ctx.serverOf[slot] === o.server) && (o.filter === undefined || o.filter(bySlot[slot]!.doc)) ? 1 : 0;
    }
    return ctx.verdict[slot] === 1;
  };
  let nt = 0;
  const { weightById } = ctx;
  const weighted: number[] = [];
  for (const word of words) {
    // A word with one alternative adds straight into the totals; otherwise keep its best per tool.
    const single = word.alternatives.size === 1;
    let wt = 0;
    for (const [term, weight] of word.alternatives) {
      const list = postings.get(term);
      if (!list) continue;
      if (list.stamp !== stamp) ctx.refresh(list);
      if (weightById[list.term] === 0) weighted.push(list.term);
      if (weight > weightById[list.term]!) weightById[list.term] = weight;
      const factor = weight * idf(n, list.len);
      let { slots, sats, len } = list;
      if (restricted) {
        // Copy the postings of allowed tools aside, then scan those.
        if (ctx.pickSlots.length < len) {
          ctx.pickSlots = new Int32Array(len * 2);
          ctx.pickSats = new Float64Array(len * 2);
        }
        let m = 0;
        for (let i = 0; i < len; i++) {
          if (!allowed(slots[i]!)) continue;
          ctx.pickSlots[m] = slots[i]!;
          ctx.pickSats[m++] = sats[i]!;
        }
        slots = ctx.pickSlots;
        sats = ctx.pickSats;
        len = m;
      }
      if (single) nt = addInto(slots, sats, len, factor, total, touched, nt);
      else wt = maxInto(slots, sats, len, factor, wordBest, wordTouched, wt);
    }
    for (let j = 0; j < wt; j++) {
      const slot = wordTouched[j]!;
      const t = total[slot]!;
      if (t === 0) touched[nt++] = slot;
      total[slot] = t + wordBest[slot]!;
      wordBest[slot] = 0;
    }
  }
  if (o.serverBoost > 0) boostServers(ctx, nt, o.serverBoost);
  if (o.nameCoverage > 0 && nt > 0) coverNames(ctx, nt, n, o.limit, o.nameCoverage);
  const top = topK(ctx, nt, o.limit);
  const out = top.map((slot) => ({ entry: bySlot[slot]!, score: total[slot]! }));
  const { serverBest, serverOf } = ctx;
  for (let j = 0; j < nt; j++) {
    const slot = touched[j]!;
    total[slot] = 0;
    serverBest[serverOf[slot]!] = 0;
  }
  for (const id of weighted) weightById[id] = 0;
  return out;
}

// The scan loops over one posting list (or its allowed part), kept as small separate functions so
// each stays monomorphic and tight.

/**
 * Adds `factor * sat` to each posting's tool total; returns the new touched count. A posting that adds
 * nothing (its term is only in fields of weight 0) is skipped: a total still at 0 means "not touched
 * yet", so touching it would list the tool again on its next posting.
 */
function addInto(slots: Int32Array, sats: Float64Array, len: number, factor: number, total: Float64Array, touched: Int32Array, nt: number): number {
  for (let i = 0; i < len; i++) {
    const add = factor * sats[i]!;
    if (add === 0) continue;
    const slot = slots[i]!;
    const t = total[slot]!;
    if (t === 0) touched[nt++] = slot;
    total[slot] = t + add;
  }
  return nt;
}

/** Keeps the best `factor * sat` per tool for the current word; returns the new word-touched count. */
function maxInto(slots: Int32Array, sats: Float64Array, len: number, factor: number, best: Float64Array, touched: Int32Array, wt: number): number {
  for (let i = 0; i < len; i++) {
    const slot = slots[i]!;
    const s = factor * sats[i]!;
    const b = best[slot]!;
    if (s > b) {
      if (b === 0) touched[wt++] = slot;
      best[slot] = s;
    }
  }
  return wt;
}

/**
 * Adds `boost` x the best score on each tool's server (tools of a matching server rise together).
 * `serverBest` is cleared by scoreQuery's final pass.
 */
function boostServers(ctx: ScanContext, nt: number, boost: number): void {
  const { touched, total, serverBest, serverOf } = ctx;
  for (let j = 0; j < nt; j++) {
    const slot = touched[j]!;
    const s = serverOf[slot]!;
    if (total[slot]! > serverBest[s]!) serverBest[s] = total[slot]!;
  }
  for (let j = 0; j < nt; j++) {
    const slot = touched[j]!;
    total[slot]! += boost * serverBest[serverOf[slot]!]!;
  }
}

/**
 * Multiplies each tool's total by 1 + gamma x the idf-weighted share of its name's words that the
 * query reaches (at the weight it reaches them). Only tools that could still enter the top k get the
 * (exact) factor: one below the k-th best total divided by 1 + gamma cannot overtake it.
 */
function coverNames(ctx: ScanContext, nt: number, n: number, k: number, gamma: number): void {
  const { touched, total, bySlot, weightById } = ctx;
  const floor = nt <= k ? -Infinity : total[topK(ctx, nt, k)[k - 1]!]! / (1 + gamma);
  for (let j = 0; j < nt; j++) {
    const slot = touched[j]!;
    if (total[slot]! < floor) continue;
    const e = bySlot[slot]!;
    let all = 0;
    let got = 0;
    for (let r = 0; r < e.nameRows.length; r++) {
      const row = e.nameRows[r]!;
      const d = idf(n, e.lists[row]!.len);
      all += d;
      got += d * weightById[e.terms[row]!.id]!;
    }
    if (all > 0) total[slot]! *= 1 + gamma * (got / all);
  }
}

/** Slots of the `k` best totals, best first; ties keep insertion order (older tools first). */
function topK(ctx: ScanContext, nt: number, k: number): number[] {
  const { touched, total, seqOf } = ctx;
  const top: number[] = [];
  let floor = -Infinity; // the k-th best total once the list is full
  for (let j = 0; j < nt; j++) {
    const slot = touched[j]!;
    const t = total[slot]!;
    if (t < floor) continue;
    const seq = seqOf[slot]!;
    if (top.length === k) {
      const last = top[k - 1]!;
      if (!(t > total[last]! || (t === total[last]! && seq < seqOf[last]!))) continue;
      top.pop();
    }
    let i = top.length;
    top.push(slot);
    for (; i > 0; i--) {
      const above = top[i - 1]!;
      if (!(t > total[above]! || (t === total[above]! && seq < seqOf[above]!))) break;
      top[i] = above;
    }
    top[i] = slot;
    if (top.length === k) floor = total[top[k - 1]!]!;
  }
  return top;
}
