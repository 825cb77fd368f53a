// Owns the search speed benchmark: replicate a tool pool under renamed servers up to a target size,
// then time a full index build, queries (p50/p99) and single-tool updates and removals. Queries run
// in rounds until at least 1,000 are timed (a p99 over 95 timings is just their maximum). The load
// average at the start is recorded with the result: on a shared machine it explains the tail.
import { loadavg } from 'node:os';
import type { ToolDoc } from './document.js';
import { ToolIndex, type IndexOptions } from './index.js';
import { percentile } from './metrics.js';

export interface SpeedResult {
  tools: number;
  indexMs: number;
  query: { p50: number; p99: number; count: number };
  /** One-minute load average when the run started (2 cores here: above 2 means waiting for CPU). */
  load: number;
  update: { p50: number; p99: number; max: number; count: number };
  remove: { p50: number; p99: number; count: number };
}

/** `tools` copied under servers `<server>-copy<i>` until `target` tools exist. */
export function replicate(tools: readonly ToolDoc[], target: number): ToolDoc[] {
  const out: ToolDoc[] = [];
  for (let copy = 0; out.length < target; copy++) {
    for (const t of tools) {
      if (out.length >= target) break;
      const server = copy === 0 ? t.server : `${t.server}-copy${copy}`;
      out.push({ ...t, server, key: `${server}/${t.name}` });
    }
  }
  return out;
}

const MIN_TIMED_QUERIES = 1000;
const MAX_ROUNDS = 10;

export function runSpeed(pool: readonly ToolDoc[], target: number, queries: readonly string[], options: Partial<IndexOptions> = {}): SpeedResult {
  const load = loadavg()[0]!;
  const tools = replicate(pool, target);
  const t0 = performance.now();
  const index = new ToolIndex(options);
  for (const t of tools) index.add(t);
  index.search('warm up');
  const indexMs = performance.now() - t0;

  for (const q of queries.slice(0, 50)) index.search(q, { limit: 10 }); // JIT warm-up
  const qTimes: number[] = [];
  const rounds = Math.min(MAX_ROUNDS, Math.ceil(MIN_TIMED_QUERIES / Math.max(1, queries.length)));
  for (let round = 0; round < rounds; round++) {
    for (const q of queries) {
      const s = performance.now();
      index.search(q, { limit: 10 });
      qTimes.push(performance.now() - s);
    }
  }

  // One tool changed: a new description, re-indexed alone (the next search sees it).
  const uTimes: number[] = [];
  const count = Math.min(500, tools.length);
  for (let i = 0; i < count; i++) {
    const t = tools[(i * 7919) % tools.length]!;
    const changed = { ...t, description: `${t.description ?? ''} (revised ${i})` };
    const s = performance.now();
    index.update(changed);
    uTimes.push(performance.now() - s);
  }
  const rTimes: number[] = [];
  for (let i = 0; i < count; i++) {
    const t = tools[(i * 104729) % tools.length]!;
    if (!index.has(t.key)) continue;
    const s = performance.now();
    index.remove(t.key);
    rTimes.push(performance.now() - s);
  }
  return {
    tools: tools.length,
    indexMs,
    query: { p50: percentile(qTimes, 50), p99: percentile(qTimes, 99), count: qTimes.length },
    load,
    update: { p50: percentile(uTimes, 50), p99: percentile(uTimes, 99), max: Math.max(...uTimes), count: uTimes.length },
    remove: { p50: percentile(rTimes, 50), p99: percentile(rTimes, 99), count: rTimes.length },
  };
}
