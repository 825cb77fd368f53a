// Owns <data-dir>/recent-servers.json: when clients last called each server (by server identity,
// src/servers/identity.ts), kept for RECENT_DAYS. `serve` writes it when its calls have settled and
// at shutdown (called-servers-keeper.ts), never rewriting the same content; the early start of the next `serve --stdio` reads it to decide which
// servers to start before the gateway has loaded (serve-prestart.ts). Checked by hand, not with
// zod: it is read before zod is loaded, and a file that does not look right is simply ignored.
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../config/atomic-file.js';
import { DAY_MS } from '../store/utc-day.js';

const RECENT_SERVERS_FILE = 'recent-servers.json';
/** A server called within this many days counts as recently used. */
const RECENT_DAYS = 14;

/** identity → when a client last called the server (ms since the epoch); empty when unknown. */
export function readRecentServers(dataDir: string): Map<string, number> {
  return parseRecentServers(readRecentText(dataDir));
}

/** The file's text; undefined when there is none yet (a new data dir) or it cannot be read. */
function readRecentText(dataDir: string): string | undefined {
  try {
    return readFileSync(path.join(dataDir, RECENT_SERVERS_FILE), 'utf8');
  } catch {
    return undefined;
  }
}

function parseRecentServers(text: string | undefined): Map<string, number> {
  const recent = new Map<string, number>();
  if (text === undefined) return recent;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return recent; // unreadable: nothing counts as recent
  }
  const calledAt = typeof parsed === 'object' && parsed !== null ? (parsed as { calledAt?: unknown }).calledAt : undefined;
  if (typeof calledAt !== 'object' || calledAt === null) return recent;
  for (const [identity, at] of Object.entries(calledAt)) if (typeof at === 'number' && Number.isFinite(at)) recent.set(identity, at);
  return recent;
}

/**
 * Merges `called` into the file (the newer time wins per identity) and drops what is older than
 * RECENT_DAYS. Nothing is written when that leaves the file as it is; returns whether it wrote.
 */
export function writeRecentServers(dataDir: string, called: ReadonlyMap<string, number>, now = Date.now()): boolean {
  const before = readRecentText(dataDir);
  const merged = parseRecentServers(before);
  for (const [identity, at] of called) merged.set(identity, Math.max(at, merged.get(identity) ?? 0));
  const cutoff = now - RECENT_DAYS * DAY_MS;
  const kept = Object.fromEntries([...merged].filter(([, at]) => at >= cutoff));
  const text = `${JSON.stringify({ version: 1, calledAt: kept }, null, 2)}\n`;
  if (text === before) return false;
  mkdirSync(dataDir, { recursive: true });
  writeFileAtomic(path.join(dataDir, RECENT_SERVERS_FILE), text);
  return true;
}

/** Whether a time is recent enough to count. */
export function isRecent(at: number | undefined, now = Date.now()): boolean {
  return at !== undefined && at >= now - RECENT_DAYS * DAY_MS;
}
