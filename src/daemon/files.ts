// Owns the daemon's files in the data dir (<data dir>/daemon/, every file mode 0600): the lock that
// makes one daemon per data dir (created exclusively, holding a pid; a lock whose pid is gone is
// stale and taken over), the state the running daemon writes once it listens (pid, URL, start
// time), the token shims present, and the daemon's own stdout/stderr for crashes before logging.
import { randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../config/atomic-file.js';
import { isAlive } from '../servers/process-tree.js';

export interface DaemonPaths {
  dir: string;
  lock: string;
  state: string;
  token: string;
  output: string;
}

export function daemonPaths(dataDir: string): DaemonPaths {
  const dir = path.join(path.resolve(dataDir), 'daemon');
  return { dir, lock: path.join(dir, 'daemon.lock'), state: path.join(dir, 'state.json'), token: path.join(dir, 'token'), output: path.join(dir, 'daemon.out') };
}

/** What a running daemon writes once it listens. */
export interface DaemonState {
  pid: number;
  url: string;
  startedAt: number;
  config: string;
  version: string;
}

function ensureDir(paths: DaemonPaths): void {
  mkdirSync(paths.dir, { recursive: true, mode: 0o700 });
}

export function readState(paths: DaemonPaths): DaemonState | undefined {
  try {
    const state = JSON.parse(readFileSync(paths.state, 'utf8')) as Partial<DaemonState>;
    if (typeof state.pid !== 'number' || typeof state.url !== 'string' || typeof state.startedAt !== 'number') return undefined;
    return state as DaemonState;
  } catch {
    return undefined; // none yet, or half-written by a daemon that died: not running
  }
}

/** Written whole (a temporary file renamed over), so a reader never sees half of it. */
export function writeState(paths: DaemonPaths, state: DaemonState): void {
  ensureDir(paths);
  writeFileAtomic(paths.state, `${JSON.stringify(state, null, 2)}\n`, 0o600);
}

/** Removes the state file if it is this pid's (a newer daemon's is left alone). */
export function clearState(paths: DaemonPaths, pid: number): void {
  if (readState(paths)?.pid === pid) rmSync(paths.state, { force: true });
}

/** The token shims send; created (random, 256 bits) on first use. */
export function daemonToken(paths: DaemonPaths): string {
  try {
    const token = readFileSync(paths.token, 'utf8').trim();
    if (token.length >= 32) return token;
  } catch {
    // not created yet
  }
  ensureDir(paths);
  const token = randomBytes(32).toString('base64url');
  writeFileSync(paths.token, `${token}\n`, { mode: 0o600 });
  return token;
}

export function lockHolder(paths: DaemonPaths): number | undefined {
  try {
    const pid = Number(readFileSync(paths.lock, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Tries to take the lock for `pid`: `true` when taken, else `false` (a live holder has it, or a
 * starter created it this instant and is writing its pid: try again shortly). A lock whose holder
 * is gone (a daemon killed with SIGKILL, a machine restart) is stale: removed and taken.
 */
export function acquireLock(paths: DaemonPaths, pid: number): boolean {
  ensureDir(paths);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(paths.lock, 'wx', 0o600);
      writeSync(fd, `${pid}\n`);
      closeSync(fd);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = lockHolder(paths);
    if (holder !== undefined && isAlive(holder)) return false;
    if (holder === undefined && ageMs(paths.lock) < FRESH_LOCK_MS) return false;
    rmSync(paths.lock, { force: true }); // stale
  }
  return false;
}

/** A lock without a pid younger than this is being written, not stale. */
const FRESH_LOCK_MS = 2000;

function ageMs(file: string): number {
  try {
    return Date.now() - statSync(file).mtimeMs;
  } catch {
    return Infinity;
  }
}

/** Hands the lock to another pid (the starter gives it to the daemon it spawned). */
export function moveLock(paths: DaemonPaths, pid: number): void {
  writeFileSync(paths.lock, `${pid}\n`, { mode: 0o600 });
}

/** Removes the lock if `pid` holds it. */
export function releaseLock(paths: DaemonPaths, pid: number): void {
  if (lockHolder(paths) === pid) rmSync(paths.lock, { force: true });
}

/** The last `lines` lines of the daemon's own output (why it exited before logging anything). */
export function outputTail(paths: DaemonPaths, lines = 15): string {
  try {
    return readFileSync(paths.output, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}
