// Owns the early start of `serve --stdio`: imported first by main.ts, it reads the config file as
// plain JSON (before commander, zod, the SDK and the gateway load, which take most of a second) and
// starts the stdio servers a session is about to need, so their start overlaps the gateway's own.
// Which servers (docs/performance.md, "First call"):
//   - those the gateway starts at boot anyway (`lazy: false`, `preconnect`, lazy start off);
//   - those clients called in recent runs on this data dir (recent-servers.ts), the most recent
//     PRESTART_MAX_RECENT of them;
//   - the config's only server;
// never one marked `"lazy": true`, never over HTTP (a long-lived face) or on Windows. The loaded
// configuration has the last word: a connection adopts an early child only when it was started
// exactly as the connection would start it (src/servers/prestart.ts); anything else is stopped.
// Nothing here can fail `serve`: a config it cannot read starts nothing, and the real loader reports it.
// When it started any, it also reads the client's first line from stdin (gateway/stdin-peek.ts; the
// face takes what was read): a 2025-era `initialize` there says which capabilities the connections
// will carry, and the early children are sent that handshake at once (initializeEarly in
// servers/prestart.ts), so it runs while the gateway loads instead of after its answer.
// How entries are read (which list, disabled, implied type, expansion, the absolute launch) is the
// loader's own zod-free half, config/raw-entries.ts; this module only picks which of them start early.
// Until serve's shutdown is in place, a SIGTERM, SIGINT or SIGHUP stops what started and exits (early-signals.ts).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { isatty } from 'node:tty';
import { parseJsonc } from '../config/json.js';
import { isPlainObject } from '../config/expand.js';
import { absoluteStdioLaunch, entryType, expandEntry, isAmbiguousEntry, isDisabledEntry, isStrings, plainStdioFields, serverKeyProblem, serverListOf, settingsFileFor, unwrapSettingsFile } from '../config/raw-entries.js';
import { gatewayChain, markChildren, selfReference } from '../config/self-reference.js';
import type { StdioLaunch } from '../config/types.js';
import { serverIdentity } from '../servers/identity.js';
import { initializeEarly, prestart } from '../servers/prestart.js';
import { capabilitiesForClientLine, downstreamInitializeParams } from '../servers/downstream-hello.js';
import { peekFirstLine } from '../gateway/stdin-peek.js';
import { watchEarlySignals } from './early-signals.js';
import { stdioSpawnSpec } from '../servers/spawn-spec.js';
import { dataDirOf } from './data-dir.js';
import { faceOf, serveOptions } from './serve-face.js';
import { isRecent, readRecentServers } from './recent-servers.js';

/** At most this many servers are started early for being called lately (eager and only servers come on top). */
export const PRESTART_MAX_RECENT = 4;

/** What the early start did, for serve's log. */
export interface PrestartOutcome {
  started: Array<{ key: string; why: 'eager' | 'recent' | 'only server' }>;
  /** Why nothing was looked at (e.g. --http), when so. */
  skipped?: string;
  /** The servers sent the client's `initialize` early (once the client's first line was read). */
  initializedEarly?: string[];
  /** Why the early handshake was not begun, when reading the client's first line failed. */
  earlyHandshakeFailed?: string;
}

export const prestartOutcome: PrestartOutcome = { started: [] };

/** A stdio entry as far as the early start understands it. */
interface EarlyEntry {
  key: string;
  launch: StdioLaunch;
  identity: string;
  lazy: boolean | undefined;
}

/** Starts the servers the rule above picks for `serve <args>`; returns what it did. */
export function prestartServe(args: string[], env: NodeJS.ProcessEnv = process.env, now = Date.now()): PrestartOutcome {
  const outcome: PrestartOutcome = { started: [] };
  if (process.platform === 'win32') return { ...outcome, skipped: 'not on Windows' };
  const values = serveOptions(['node', 'switchboard', 'serve', ...args]);
  if (!values || faceOf(values) !== 'stdio') return { ...outcome, skipped: 'not serving stdio' };
  const file = path.resolve(typeof values.config === 'string' ? values.config : './.mcp.json');
  if (gatewayChain(env).includes(file)) return { ...outcome, skipped: 'started by a gateway on the same file' };
  let root: unknown;
  try {
    root = parseJsonc(readFileSync(file, 'utf8'));
  } catch (error) {
    return { ...outcome, skipped: `config not read: ${(error as Error).message}` };
  }
  if (!isPlainObject(root)) return { ...outcome, skipped: 'config is not an object' };
  const list = serverListOf(root);
  if ('problem' in list) return { ...outcome, skipped: 'no server list' };

  const baseDir = path.dirname(file);
  const settings = settingsOf(root, file);
  const enabled = Object.entries(list.entries).filter(([, raw]) => isPlainObject(raw) && !isDisabledEntry(raw));
  markChildren(file); // the marker every child gets (loadContext sets the same one)
  const entries = enabled.flatMap(([key, raw]) => earlyEntry(key, raw as Record<string, unknown>, baseDir, env));
  const recent = readRecentServers(dataDirOf({ dataDir: typeof values['data-dir'] === 'string' ? values['data-dir'] : undefined }));

  const picked = new Map<string, PrestartOutcome['started'][number]['why']>();
  for (const entry of entries) {
    if (entry.lazy === false || settings.lazy === false || settings.preconnect.includes(entry.key)) picked.set(entry.key, 'eager');
  }
  const calledLately = entries
    .filter((entry) => entry.lazy !== true && isRecent(recent.get(entry.identity), now))
    .sort((a, b) => recent.get(b.identity)! - recent.get(a.identity)!)
    .slice(0, PRESTART_MAX_RECENT);
  for (const entry of calledLately) if (!picked.has(entry.key)) picked.set(entry.key, 'recent');
  if (enabled.length === 1 && entries.length === 1 && entries[0].lazy !== true && !picked.has(entries[0].key)) picked.set(entries[0].key, 'only server');

  for (const entry of entries) {
    const why = picked.get(entry.key);
    if (!why) continue;
    // A server called lately is listed from the cache first: its first call goes before its listing.
    prestart(entry.key, stdioSpawnSpec(entry.launch), { listEarly: why !== 'recent' });
    outcome.started.push({ key: entry.key, why });
  }
  return outcome;
}

/** The entry's launch as the loader would normalize it, or nothing when it is not a plain stdio entry. */
function earlyEntry(key: string, raw: Record<string, unknown>, baseDir: string, env: NodeJS.ProcessEnv): EarlyEntry[] {
  if (serverKeyProblem(key) || isAmbiguousEntry(raw) || entryType(raw) !== 'stdio') return [];
  let expanded: Record<string, unknown>;
  try {
    expanded = expandEntry(raw, env);
  } catch {
    return []; // an unset variable: the loader skips the entry with a warning (or reports a bad reference)
  }
  const fields = plainStdioFields(expanded);
  if (!fields) return []; // the loader reports what is wrong with it
  const launch: StdioLaunch = absoluteStdioLaunch(fields, baseDir);
  if (selfReference(launch, baseDir)) return [];
  const selection = {
    ...(isStrings(raw.enabledTools) && { enabledTools: [...raw.enabledTools] }),
    ...(isStrings(raw.disabledTools) && { disabledTools: [...raw.disabledTools] }),
  };
  const identity = serverIdentity({ key, transport: 'stdio', ...launch, disabled: false, ...selection });
  return [{ key, launch, identity, lazy: typeof raw.lazy === 'boolean' ? raw.lazy : undefined }];
}

/** `lazy` and `preconnect` from switchboard.json beside the file and the file's own "switchboard" block (which wins). */
function settingsOf(root: Record<string, unknown>, file: string): { lazy?: boolean; preconnect: string[] } {
  const blocks: unknown[] = [];
  const sidecarFile = settingsFileFor(file);
  try {
    const sidecar = sidecarFile === undefined ? undefined : parseJsonc(readFileSync(sidecarFile, 'utf8'));
    if (isPlainObject(sidecar)) blocks.push(unwrapSettingsFile(sidecar));
  } catch {
    // none, or unreadable: the loader reports a broken one
  }
  blocks.push(root.switchboard);
  const settings: { lazy?: boolean; preconnect: string[] } = { preconnect: [] };
  for (const block of blocks) {
    if (!isPlainObject(block)) continue;
    if (typeof block.lazy === 'boolean') settings.lazy = block.lazy;
    if (isStrings(block.preconnect)) settings.preconnect = block.preconnect;
  }
  return settings;
}

// The side effect main.ts imports this module for: before anything heavy loads. A failure here only
// means nothing starts early; serve logs why (serve-early-servers.ts) and goes on lazily.
if (process.argv[2] === 'serve') {
  watchEarlySignals();
  try {
    Object.assign(prestartOutcome, prestartServe(process.argv.slice(3)));
    if (prestartOutcome.started.length && !isatty(0)) {
      peekFirstLine(process.stdin, (line) => {
        // In a stream's event, outside the try below: a line that breaks this only means nothing is sent early.
        try {
          const capabilities = capabilitiesForClientLine(line);
          if (capabilities) prestartOutcome.initializedEarly = initializeEarly(downstreamInitializeParams(capabilities));
        } catch (error) {
          prestartOutcome.earlyHandshakeFailed = (error as Error).message;
        }
      });
    }
  } catch (error) {
    prestartOutcome.skipped = `early start failed: ${(error as Error).message}`;
  }
}
