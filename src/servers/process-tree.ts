// Owns stopping a server's whole process tree: close the client (which ends the child's stdin),
// then SIGTERM, then SIGKILL, each after a grace period, down to grandchildren started through a
// wrapper (npx, a shell script), found through Linux /proc. Elsewhere only the SDK's close applies.
import { readdirSync, readFileSync } from 'node:fs';
import type { Client } from '@modelcontextprotocol/client';
import type { Logger } from '../logging/logger.js';

/** Every descendant of `pid` (children first, then theirs), read from /proc; [] where /proc is absent. */
export function descendantsOf(pid: number): number[] {
  const children = new Map<number, number[]>();
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const list = children.get(ppid) ?? [];
      list.push(Number(entry));
      children.set(ppid, list);
    } catch {
      // the process ended while we looked
    }
  }
  const found: number[] = [];
  const queue = [pid];
  while (queue.length) {
    for (const child of children.get(queue.shift()!) ?? []) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** SIGKILLs every given process still alive; returns how many it had to kill. */
export function killSurvivors(pids: number[]): number {
  let killed = 0;
  for (const pid of pids) {
    if (!isAlive(pid)) continue;
    try {
      process.kill(pid, 'SIGKILL');
      killed++;
    } catch {
      // gone in the meantime
    }
  }
  return killed;
}

/** Closes a client and makes sure the process tree under `pid` is gone afterwards. */
export async function closeAndReap(client: Client, pid: number | null, graceMs: number, log: Logger): Promise<void> {
  const closing = client.close().catch(() => undefined); // ends the child's stdin at once
  if (!pid) return void (await closing);
  const tree = [pid, ...descendantsOf(pid)];
  const gone = () => !tree.some(isAlive);
  if (!(await waitUntil(gone, graceMs))) {
    for (const p of tree) signal(p, 'SIGTERM');
    if (!(await waitUntil(gone, graceMs))) log.warn({ killed: killSurvivors(tree) }, 'killed processes that ignored stdin closing and SIGTERM');
  }
  await Promise.race([closing, new Promise((r) => setTimeout(r, 100))]);
}

async function waitUntil(done: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() >= deadline) return false;
    await new Promise((r) => setTimeout(r, 25));
  }
  return true;
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // already gone
  }
}
