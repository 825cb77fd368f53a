// Owns stopping a server's whole process tree: close the client (which ends the child's stdin),
// then SIGTERM, then SIGKILL, each after a grace period, down to grandchildren started through a
// wrapper (npx, a shell script), found through Linux /proc (`ps` where there is no /proc). Also the
// last line of defence: every spawned tree is tracked, and whatever of it still runs when this
// process exits (any path that reaches process.exit) is SIGKILLed synchronously.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import type { Client } from '@modelcontextprotocol/client';
import type { Logger } from '../logging/logger.js';

/** Every descendant of `pid` (children first, then theirs), from /proc or else `ps`; [] if neither works. */
export function descendantsOf(pid: number): number[] {
  const children = childrenByParent();
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

function childrenByParent(): Map<number, number[]> {
  const children = new Map<number, number[]>();
  const add = (pid: number, ppid: number) => {
    const list = children.get(ppid) ?? [];
    list.push(pid);
    children.set(ppid, list);
  };
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    for (const [pid, ppid] of psTable()) add(pid, ppid);
    return children;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      add(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // the process ended while we looked
    }
  }
  return children;
}

/** [pid, ppid] of every process from `ps` (macOS, BSD); [] where there is no `ps` (Windows). */
function psTable(): Array<[number, number]> {
  if (process.platform === 'win32') return [];
  try {
    const out = execFileSync('ps', ['-A', '-o', 'pid=,ppid='], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 2000 });
    return out
      .split('\n')
      .map((line) => line.trim().split(/\s+/).map(Number) as [number, number])
      .filter(([pid, ppid]) => Number.isInteger(pid) && Number.isInteger(ppid));
  } catch {
    return [];
  }
}

/** Root PID of each spawned tree still ours → every descendant seen so far (kept even after it is orphaned). */
const tracked = new Map<number, Set<number>>();
let exitHookInstalled = false;

/** Registers a freshly spawned server process so nothing under it outlives this process. */
export function trackTree(pid: number): void {
  for (const [root, seen] of tracked) if (seen.size === 0 && !isAlive(root)) tracked.delete(root); // ended on its own
  tracked.set(pid, new Set());
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    killTrackedNow();
  });
}

/** Synchronously SIGKILLs every tracked tree (what still runs of it); returns how many processes. */
export function killTrackedNow(): number {
  let killed = 0;
  for (const [root, seen] of tracked) {
    const tree = [...(isOurChild(root) ? [root, ...descendantsOf(root)] : []), ...seen];
    killed += killSurvivors([...new Set(tree)]);
  }
  tracked.clear();
  return killed;
}

/** Alive and still our child (not a reused PID), where /proc can tell. */
function isOurChild(pid: number): boolean {
  if (!isAlive(pid)) return false;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === process.pid;
  } catch {
    return true;
  }
}

function remember(root: number, pids: number[]): void {
  const seen = tracked.get(root);
  if (seen) for (const pid of pids) if (pid !== root) seen.add(pid);
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
export async function closeAndReap(client: Pick<Client, 'close'>, pid: number | null, graceMs: number, log: Logger): Promise<void> {
  // The tree is read before anything is asked to stop, so a grandchild orphaned by its parent's
  // exit is still known by PID.
  const tree = pid ? [...new Set([pid, ...descendantsOf(pid), ...(tracked.get(pid) ?? [])])] : [];
  if (pid) remember(pid, tree);
  const closing = client.close().catch(() => undefined); // ends the child's stdin at once
  if (!pid) return void (await closing);
  const gone = () => !tree.some(isAlive);
  if (!(await waitUntil(gone, graceMs))) {
    for (const p of tree) signal(p, 'SIGTERM');
    if (!(await waitUntil(gone, graceMs))) log.warn({ killed: killSurvivors(tree) }, 'killed processes that ignored stdin closing and SIGTERM');
  }
  tracked.delete(pid);
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
