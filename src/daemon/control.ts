// Owns starting, finding and stopping the daemon: the HTTP gateway run in the background, one per
// data dir. Starting takes the lock (so ten shims starting at once spawn one daemon; the others
// wait for it), spawns `switchboard serve --http --daemon` detached with its output in a file, and
// waits until it listens and answers /healthz. Stopping sends SIGTERM (the daemon stops its servers
// in order), then SIGKILLs the whole process group after a grace period.
import { spawn } from 'node:child_process';
import http from 'node:http';
import { openSync, closeSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { isAlive } from '../servers/process-tree.js';
import { acquireLock, clearState, daemonPaths, daemonToken, lockHolder, moveLock, outputTail, readState, releaseLock, type DaemonPaths, type DaemonState } from './files.js';

export const DAEMON_TOKEN_ENV = 'SWITCHBOARD_DAEMON_TOKEN';
const BIN = fileURLToPath(new URL('../../bin/switchboard.js', import.meta.url));

/** The daemon could not be started or reached; the message says why and what to do. */
export class DaemonError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DaemonError';
  }
}

export interface RunningDaemon {
  state: DaemonState;
  token: string;
  paths: DaemonPaths;
}

export interface StartOptions {
  dataDir: string;
  /** The config file the daemon serves (absolute). */
  config: string;
  /** Default 0: any free port (the state file says which). */
  port?: number;
  logLevel?: string;
  /** How long to wait for the daemon to answer (default 30 s: first starts compile nothing but may be slow). */
  timeoutMs?: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** GET /healthz of a daemon; its JSON when it answers 200 within `timeoutMs` (node:http: cheap at a shim's start). */
export function health(state: DaemonState, timeoutMs = 2000): Promise<Record<string, unknown> | undefined> {
  return new Promise((resolve) => {
    const request = http.get(`${state.url}/healthz`, { timeout: timeoutMs }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.once('end', () => {
        try {
          resolve(response.statusCode === 200 ? (JSON.parse(text) as Record<string, unknown>) : undefined);
        } catch {
          resolve(undefined);
        }
      });
      response.once('error', () => resolve(undefined));
    });
    request.once('timeout', () => request.destroy());
    request.once('error', () => resolve(undefined));
  });
}

/** The daemon of this data dir when it runs and answers; undefined otherwise. */
export async function findDaemon(dataDir: string): Promise<RunningDaemon | undefined> {
  const paths = daemonPaths(dataDir);
  const state = readState(paths);
  if (!state || !isAlive(state.pid) || !(await health(state))) return undefined;
  return { state, token: daemonToken(paths), paths };
}

/** Starts the daemon unless one runs; `started` says whether this call started it. */
export async function startDaemon(options: StartOptions): Promise<RunningDaemon & { started: boolean }> {
  const paths = daemonPaths(options.dataDir);
  const timeoutMs = options.timeoutMs ?? 30_000;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const running = await findDaemon(options.dataDir);
    if (running) return { ...running, started: false };
    if (acquireLock(paths, process.pid)) break;
    // Another process holds the lock: a daemon starting (or one that stopped answering).
    if (Date.now() > deadline) {
      const holder = lockHolder(paths);
      throw new DaemonError(`the daemon of ${options.dataDir} did not answer within ${timeoutMs} ms (lock ${paths.lock} held by pid ${holder ?? '?'}); see "switchboard daemon logs", or "switchboard daemon stop" and start again`);
    }
    await sleep(100);
  }
  try {
    return { ...(await spawnDaemon(paths, options, deadline)), started: true };
  } catch (error) {
    releaseLock(paths, process.pid);
    throw error;
  }
}

async function spawnDaemon(paths: DaemonPaths, options: StartOptions, deadline: number): Promise<RunningDaemon> {
  const token = daemonToken(paths);
  const out = openSync(paths.output, 'a', 0o600);
  const args = [BIN, 'serve', '--http', '--host', '127.0.0.1', '--port', String(options.port ?? 0), '--config', options.config, '--data-dir', options.dataDir, '--daemon'];
  if (options.logLevel) args.push('--log-level', options.logLevel);
  const child = spawn(process.execPath, args, { detached: true, stdio: ['ignore', out, out], env: { ...process.env, [DAEMON_TOKEN_ENV]: token } });
  closeSync(out);
  child.unref();
  const pid = child.pid!;
  moveLock(paths, pid);
  let exited: number | string | undefined;
  child.once('exit', (code, signal) => (exited = code ?? signal ?? 'unknown'));
  while (Date.now() < deadline) {
    if (exited !== undefined) {
      releaseLock(paths, pid);
      const tail = outputTail(paths);
      throw new DaemonError(`the daemon exited (${exited}) while starting${tail ? `:\n${tail}` : ''}`);
    }
    const state = readState(paths);
    if (state?.pid === pid && (await health(state))) return { state, token, paths };
    await sleep(100);
  }
  throw new DaemonError(`the daemon (pid ${pid}) did not answer within the time allowed; its output is in ${paths.output}`);
}

export interface StopResult {
  /** The pid that was stopped; undefined when none ran. */
  pid?: number;
  /** SIGKILL was needed after the grace period. */
  forced: boolean;
}

/** Stops the daemon of a data dir (and cleans up a stale lock and state when none runs). */
export async function stopDaemon(dataDir: string, graceMs = 10_000): Promise<StopResult> {
  const paths = daemonPaths(dataDir);
  const pid = readState(paths)?.pid ?? lockHolder(paths);
  if (pid === undefined || !isAlive(pid)) {
    if (pid !== undefined) {
      clearState(paths, pid);
      releaseLock(paths, pid);
    }
    return { forced: false };
  }
  process.kill(pid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (isAlive(pid) && Date.now() < deadline) await sleep(50);
  let forced = false;
  if (isAlive(pid)) {
    forced = true;
    try {
      process.kill(-pid, 'SIGKILL'); // its process group: the daemon and every server it started
    } catch {
      process.kill(pid, 'SIGKILL');
    }
    while (isAlive(pid)) await sleep(20);
  }
  clearState(paths, pid);
  releaseLock(paths, pid);
  return { pid, forced };
}
