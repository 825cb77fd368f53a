// Owns the stdio servers `serve` starts before the gateway's own modules have loaded (the rule that
// picks them is in src/cli/serve-prestart.ts): each child waits here, its output buffered in its
// pipes, until the first connection to that server adopts it (transport.ts). A connection adopts a
// child only when it was started exactly as the connection would start it (spawn-spec.ts); any
// other child, and one nobody adopted in time, is stopped with its whole tree. Once the stdio
// client's `initialize` is known, each waiting child begins the handshake its connection will make
// (initializeEarly, early-handshake.ts), so it runs while the gateway loads; the connection adopts
// such a child only when its own `initialize` says exactly the same. Light on purpose.
import { spawn, type ChildProcess } from 'node:child_process';
import type { Logger } from '../logging/logger.js';
import { sameInitializeParams, type DownstreamInitializeParams } from './downstream-hello.js';
import { beginEarlyHandshake, type EarlyHandshake } from './early-handshake.js';
import { closeAndReap, trackTree } from './process-tree.js';
import { sameSpawnSpec, type StdioSpawnSpec } from './spawn-spec.js';

/** A child started early, as a connection finds it. */
export interface PrestartedChild {
  key: string;
  spec: StdioSpawnSpec;
  child: ChildProcess;
  /** When it was started (Date.now()). */
  startedAt: number;
  /** Set when the child could not be started (e.g. ENOENT); the connection reports it as its own start would. */
  spawnError?: Error;
  /** The handshake begun before adoption, if one was. */
  early?: EarlyHandshake;
  /** Whether that handshake lists the server's tools early (false: the gateway has them cached, and the first call goes first). */
  listEarly: boolean;
}

const waiting = new Map<string, PrestartedChild>();

/**
 * Starts a server's child now, for the first connection to `key` to adopt (one per key).
 * `listEarly` false: its early handshake stops after `initialize` (see early-handshake.ts).
 */
export function prestart(key: string, spec: StdioSpawnSpec, options: { listEarly?: boolean } = {}): PrestartedChild {
  const started = waiting.get(key);
  if (started) return started;
  const child = spawn(spec.command, spec.args, { env: spec.env, cwd: spec.cwd, stdio: ['pipe', 'pipe', 'pipe'], shell: false, windowsHide: true });
  const entry: PrestartedChild = { key, spec, child, startedAt: Date.now(), listEarly: options.listEarly ?? true };
  // Until adopted, a failed start is remembered (and reported by the adopting connection), never thrown.
  child.once('error', (error) => {
    entry.spawnError = error;
  });
  child.stdin?.on('error', () => undefined);
  if (child.pid) trackTree(child.pid); // killed at our exit if nothing stopped it before
  waiting.set(key, entry);
  return entry;
}

/**
 * Begins, in every waiting child that has had none yet, the handshake its connection will make with
 * `initialize` params `params`: the server answers while the gateway is still loading. Returns the
 * keys begun.
 */
export function initializeEarly(params: DownstreamInitializeParams): string[] {
  const sent: string[] = [];
  for (const entry of waiting.values()) {
    const { stdin, stdout } = entry.child;
    if (entry.early || entry.spawnError || !stdin?.writable || !stdout || entry.child.exitCode !== null) continue;
    entry.early = beginEarlyHandshake(entry.child, params, entry.listEarly);
    sent.push(entry.key);
  }
  return sent;
}

/** Server keys whose early child waits for its connection. */
export function prestartedKeys(): string[] {
  return [...waiting.keys()];
}

/** Whether an early child of `key` waits for its connection (cheap: no spec is computed). */
export function hasPrestarted(key: string): boolean {
  return waiting.has(key);
}

/**
 * The early child of `key` when it was started with exactly `spec` and, if it was sent an early
 * `initialize`, when that is exactly `initialize` (what the claiming connection will send; it leaves
 * the registry: one adoption). Any other child is stopped, and the caller starts its own.
 */
export function claimPrestarted(key: string, spec: StdioSpawnSpec, log?: Logger, initialize?: DownstreamInitializeParams): PrestartedChild | undefined {
  const entry = waiting.get(key);
  if (!entry) return undefined;
  waiting.delete(key);
  if (!sameSpawnSpec(entry.spec, spec)) {
    log?.warn({ server: key }, 'the server started early was started differently than its configuration says; stopping it and starting it again');
  } else if (entry.early && !sameInitializeParams(entry.early.params, initialize)) {
    // Another capability profile than the client's first initialize (or a connection of another era).
    log?.info({ server: key }, 'the server started early was initialized for other client capabilities; stopping it and starting it again');
  } else {
    return entry;
  }
  void stopChild(entry, log);
  return undefined;
}

/**
 * Stops the early children nobody adopted: every one, or those `keep` refuses (a server the loaded
 * configuration does not have, or has with other settings). Returns the keys stopped.
 */
export async function discardPrestarted(log: Logger | undefined, keep: (entry: PrestartedChild) => boolean = () => false): Promise<string[]> {
  const stopped = [...waiting.values()].filter((entry) => !keep(entry));
  for (const entry of stopped) waiting.delete(entry.key);
  await Promise.all(stopped.map((entry) => stopChild(entry, log)));
  return stopped.map((entry) => entry.key);
}

/** Grace before SIGTERM and again before SIGKILL, as for a connection's own child. */
const STOP_GRACE_MS = 2000;

async function stopChild(entry: PrestartedChild, log: Logger | undefined): Promise<void> {
  const child = entry.child;
  const quiet = { warn: () => undefined } as unknown as Logger;
  await closeAndReap({ close: async () => void child.stdin?.end() }, entry.spawnError ? null : child.pid ?? null, STOP_GRACE_MS, log ?? quiet);
  child.stdout?.destroy();
  child.stderr?.destroy();
}
