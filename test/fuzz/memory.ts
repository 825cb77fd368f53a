// Reading a gateway child's memory for the fuzz tests, honestly: RSS from /proc once the process has
// gone quiet (V8's memory reducer collects the garbage and gives empty heap pages back on its own
// schedule: seconds after allocation stops on an idle machine, only at its 100 s watchdog on a busy
// one), and the live heap and RSS after forced full collections, read by the test-only preload
// test/fixtures/memory-probe.mjs (node --expose-gc --import). The settled RSS is read before a
// probe, never right after one: a forced collection makes RSS jump for a moment.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO, waitFor } from '../helpers/gateway.js';

/** Node arguments that load the probe into a gateway child. */
export const PROBE_NODE_ARGS = ['--expose-gc', '--import', path.join(REPO, 'test/fixtures/memory-probe.mjs')];

export function rssKb(pid: number): number {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
}

/**
 * RSS once it has stopped falling: sampled every 500 ms, done when the lowest sample has not dropped
 * by more than 1 % for 30 s, or after 150 s. The memory reducer waits for a quiet heap (8 s at the
 * least; about 25 s was seen for the HTTP face, whose timers keep allocating a little). Returns the
 * lowest sample.
 */
export async function settledRssKb(pid: number): Promise<number> {
  return lowestRssKb(pid, () => false);
}

/** The lowest RSS seen while waiting for it to fall under `boundKb` (at most as long as settledRssKb waits). */
export async function rssBackUnderKb(pid: number, boundKb: number): Promise<number> {
  return lowestRssKb(pid, (low) => low < boundKb);
}

async function lowestRssKb(pid: number, enough: (low: number) => boolean): Promise<number> {
  let low = rssKb(pid);
  let lowSince = Date.now();
  const deadline = Date.now() + 150_000;
  while (!enough(low) && Date.now() - lowSince < 30_000 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 500));
    const now = rssKb(pid);
    if (now < low * 0.99) lowSince = Date.now();
    low = Math.min(low, now);
  }
  return low;
}

/** What the child holds once its garbage is collected: the live heap and RSS, in bytes (both from the probe's line). */
export interface CollectedMemory {
  heapUsed: number;
  rss: number;
}

/**
 * The live heap and RSS right after full collections in the child: what it retains, and what the
 * process holds with no garbage left (retained heap, the pages V8 keeps committed, young generation
 * at its grown size, malloc arenas, buffers, code). The RSS is a report, not asserted: right after a
 * burst V8 keeps its grown spaces until its memory reducer shrinks them, so it varies (stdio 100.9 →
 * 136 MB read at once, 96.5 → 131.6 MB settled for 30 s, but 102 → 108 MB when the collections came
 * 45 s after the frames).
 */
export async function memoryAfterGc(pid: number, probeFile: string): Promise<CollectedMemory> {
  const lines = () => (existsSync(probeFile) ? readFileSync(probeFile, 'utf8').trim().split('\n').filter(Boolean) : []);
  const before = lines().length;
  process.kill(pid, 'SIGUSR2');
  const line = await waitFor(() => lines()[before], 'the memory probe to answer', 30_000);
  const { heapUsed, rss } = JSON.parse(line) as CollectedMemory;
  return { heapUsed, rss };
}
