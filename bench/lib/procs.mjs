// @ts-check
// Process plumbing for the harness: spawning a server and waiting until it listens, free ports,
// reading a process tree and its memory from /proc, and stopping a tree by PID (never by name).
// Every process the harness starts is registered here so an interrupted run still stops it.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

const MAX_TREE_DEPTH = 8;
const MAX_TREE_SIZE = 512;
const STDERR_TAIL_LINES = 30;

/** Root PIDs of everything started and not yet stopped (stdio clients' children register too). */
const started = new Set();

/** @param {number} pid */
export function registerPid(pid) {
  started.add(pid);
}

/** @param {number} pid */
export function unregisterPid(pid) {
  started.delete(pid);
}

/** Kills every registered tree (SIGKILL, no grace): for an interrupted or failed run. */
export function killAllStarted() {
  for (const pid of [...started]) {
    for (const p of treePids(pid).reverse()) signal(p, 'SIGKILL');
    started.delete(pid);
  }
}

/** @param {number} pid @param {NodeJS.Signals} sig */
function signal(pid, sig) {
  try {
    process.kill(pid, sig);
    return true;
  } catch {
    return false;
  }
}

/** @param {number} pid */
export function alive(pid) {
  try {
    process.kill(pid, 0);
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/\) Z /.test(stat); // a zombie is dead, just not reaped
  } catch {
    return false;
  }
}

/** Linux clock ticks per second (USER_HZ): the unit of the CPU times in /proc/<pid>/stat. */
const CLOCK_TICKS_PER_S = 100;

/**
 * CPU ms of one process (all its threads), clock-tick resolution: user time and system time (the
 * kernel's share: pipe reads and writes, wake-ups), and what it has collected from children that
 * already exited (`reaped`: their cutime + cstime). Throws when the process is gone.
 * @param {number} pid
 */
export function processCpuMs(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // fields[0] is field 3 (state); utime..cstime are fields 14..17
  const ms = (/** @type {number} */ at) => (Number(fields[at]) * 1000) / CLOCK_TICKS_PER_S;
  return { user: ms(11), system: ms(12), reaped: ms(13) + ms(14) };
}

/** @param {number} pid @returns {number[]} direct children (those forked by the main thread) */
function childrenOf(pid) {
  try {
    const text = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
    return text ? text.split(' ').map(Number) : [];
  } catch {
    return [];
  }
}

/**
 * The PIDs of a process and its descendants, root first (bounded in depth and size).
 * @param {number} root
 * @returns {number[]}
 */
export function treePids(root) {
  if (!alive(root)) return [];
  const out = [root];
  let frontier = [root];
  for (let depth = 0; depth < MAX_TREE_DEPTH && frontier.length && out.length < MAX_TREE_SIZE; depth++) {
    const next = [];
    for (const pid of frontier) for (const child of childrenOf(pid)) next.push(child);
    out.push(...next.slice(0, MAX_TREE_SIZE - out.length));
    frontier = next;
  }
  return out;
}

/**
 * A field of /proc/<pid>/status in kB (VmRSS, VmHWM), or 0 when the process is gone.
 * @param {number} pid
 * @param {'VmRSS' | 'VmHWM'} field
 */
export function statusKb(pid, field) {
  try {
    const text = readFileSync(`/proc/${pid}/status`, 'utf8');
    const at = text.indexOf(`${field}:`);
    if (at < 0) return 0;
    return parseInt(text.slice(at + field.length + 1), 10) || 0;
  } catch {
    return 0;
  }
}

/**
 * CPU time (ms) used so far by the trees under `roots`: user + system of every live process, plus
 * what each has collected from children that already exited (cutime + cstime).
 * @param {Iterable<number>} roots
 */
export function treeCpuMs(roots) {
  let ms = 0;
  for (const root of roots) {
    for (const pid of treePids(root)) {
      try {
        const cpu = processCpuMs(pid);
        ms += cpu.user + cpu.system + cpu.reaped;
      } catch {
        // exited between listing and reading
      }
    }
  }
  return ms;
}

/** @param {number} pid */
function cmdlineOf(pid) {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return '';
  }
}

/**
 * Stops a process tree: SIGTERM to the root, then SIGKILL to whatever of the tree (as it was before
 * the signal, checked by command line against PID reuse) is still alive after `graceMs`.
 * @param {number} root
 * @param {{graceMs?: number}} [options]
 */
export async function stopTree(root, { graceMs = 3000 } = {}) {
  const tree = treePids(root).map((pid) => ({ pid, cmdline: cmdlineOf(pid) }));
  signal(root, 'SIGTERM');
  const until = Date.now() + graceMs;
  while (Date.now() < until && tree.some((p) => alive(p.pid))) await sleep(25);
  for (const p of tree) if (alive(p.pid) && cmdlineOf(p.pid) === p.cmdline) signal(p.pid, 'SIGKILL');
  unregisterPid(root);
}

/** A TCP port on 127.0.0.1 that was free a moment ago. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = /** @type {net.AddressInfo} */ (server.address()).port;
      server.close(() => resolve(port));
    });
  });
}

/** @param {number} port @returns {Promise<boolean>} whether 127.0.0.1:port accepts a connection */
function probe(port) {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    const done = (/** @type {boolean} */ ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
    socket.setTimeout(500, () => done(false));
  });
}

/**
 * @typedef {object} ServerProcess
 * @property {import('node:child_process').ChildProcess} child
 * @property {number} pid
 * @property {() => string} stderrTail the last lines the process wrote to stderr and stdout
 * @property {() => number} refusedConnections how often the loopback guard refused a connection
 * @property {() => Promise<void>} stop
 */

/**
 * Starts a server process and resolves once 127.0.0.1:port accepts connections (or rejects with
 * its last output when it exits first or `timeoutMs` passes).
 * @param {{command: string, args: string[], env?: NodeJS.ProcessEnv, cwd?: string, port: number, timeoutMs?: number}} options
 * @returns {Promise<ServerProcess>}
 */
export async function startServer({ command, args, env, cwd, port, timeoutMs = 30_000 }) {
  const child = spawn(command, args, { env: env ?? process.env, cwd, stdio: ['pipe', 'pipe', 'pipe'] });
  /** @type {string[]} */
  const tail = [];
  let refused = 0;
  const keep = (/** @type {Buffer} */ chunk) => {
    for (const line of chunk.toString('utf8').split('\n')) {
      if (!line.trim()) continue;
      if (line.includes('[loopback-guard] refused')) refused++;
      tail.push(line.length > 400 ? `${line.slice(0, 400)}...` : line);
      if (tail.length > STDERR_TAIL_LINES) tail.shift();
    }
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  child.stdin?.on('error', () => undefined);
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  const spawnError = await new Promise((resolve) => {
    child.once('spawn', () => resolve(undefined));
    child.once('error', (error) => resolve(error));
  });
  if (spawnError) throw new Error(`could not start ${command}: ${/** @type {Error} */ (spawnError).message}`);
  const pid = /** @type {number} */ (child.pid);
  registerPid(pid);
  const stderrTail = () => tail.join('\n');
  const stop = async () => {
    await stopTree(pid);
    child.stdin?.destroy();
  };
  const until = Date.now() + timeoutMs;
  for (let attempt = 0; Date.now() < until; attempt++) {
    if (exited) {
      await stop();
      throw new Error(`exited before listening on port ${port}; last output:\n${stderrTail()}`);
    }
    if (await probe(port)) return { child, pid, stderrTail, refusedConnections: () => refused, stop };
    await sleep(Math.min(20 + attempt * 10, 100));
  }
  await stop();
  throw new Error(`did not listen on port ${port} within ${timeoutMs} ms; last output:\n${stderrTail()}`);
}
