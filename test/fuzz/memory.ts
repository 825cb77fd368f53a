// Reading a gateway child's memory for the fuzz tests, honestly: RSS from /proc once the process has
// gone quiet (V8's memory reducer gives unused heap pages back a few seconds after allocation
// stops), and the live heap after forced full collections, read by the test-only preload
// test/fixtures/memory-probe.mjs (node --expose-gc --import). The RSS is read before a probe, never
// right after one: a forced collection makes RSS jump for a moment.
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

/** The live heap (bytes) after full collections in the child: what it retains, free pages aside. */
export async function heapUsedAfterGc(pid: number, probeFile: string): Promise<number> {
  const lines = () => (existsSync(probeFile) ? readFileSync(probeFile, 'utf8').trim().split('\n').filter(Boolean) : []);
  const before = lines().length;
  process.kill(pid, 'SIGUSR2');
  const line = await waitFor(() => lines()[before], 'the memory probe to answer', 30_000);
  return (JSON.parse(line) as { heapUsed: number }).heapUsed;
}
