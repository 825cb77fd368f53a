// Owns `switchboard metrics`: per-tool call statistics read from the store (no server is started),
// for the servers of the config at their current identity (calls to another project's server of the
// same name are not shown; without a config at the default path, every recorded server is), and the helpers the store-reading commands and admin routes share: --since parsing, time display,
// and opening an existing store without creating one.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_DB_FILE, type ServerScope, type Store, type ToolStats } from '../store/index.js';
import { serverIdentity } from '../servers/identity.js';
import { loadContext, openStore, type CommonOptions } from './context.js';
import { dataDirOf } from './data-dir.js';
import { printJson, table } from './format.js';

export interface MetricsOptions extends CommonOptions {
  server?: string;
  tool?: string;
  since?: string;
  json?: boolean;
}

import { parseSince } from '../store/query-bounds.js';

export { parseSince };

export { dataDirOf } from './data-dir.js';

/**
 * Opens the store of a data dir for reading, or returns undefined when no gateway ever wrote one there,
 * so that looking at metrics never creates a database as a side effect.
 */
export function openExistingStore(dataDir: string): Store | undefined {
  if (!existsSync(path.join(dataDir, DEFAULT_DB_FILE))) return undefined;
  return openStore(dataDir);
}

/** "2025-06-01 12:00:05Z": a UTC time to the second. */
export function utcTime(ms: number): string {
  return new Date(ms).toISOString().replace('T', ' ').replace(/\.\d{3}Z$/, 'Z');
}

/** "12s ago", "5m ago", "3h ago", "2d ago" ("just now" under a second, "in 5s" for a clock ahead of ours). */
export function ago(ms: number, now: number = Date.now()): string {
  const delta = now - ms;
  if (Math.abs(delta) < 1000) return 'just now';
  const abs = Math.abs(delta);
  const text =
    abs < 60_000 ? `${Math.floor(abs / 1000)}s` : abs < 3_600_000 ? `${Math.floor(abs / 60_000)}m` : abs < 86_400_000 ? `${Math.floor(abs / 3_600_000)}h` : `${Math.floor(abs / 86_400_000)}d`;
  return delta > 0 ? `${text} ago` : `in ${text}`;
}

function milliseconds(ms: number): string {
  if (ms < 10) return ms.toFixed(2);
  if (ms < 100) return ms.toFixed(1);
  return String(Math.round(ms));
}

function percent(rate: number | null): string {
  if (rate === null) return '-';
  return `${Math.round(rate * 1000) / 10}%`;
}

/** The config path commands read when --config is not given. */
const DEFAULT_CONFIG = './.mcp.json';

/**
 * The config's servers and their identities now, or undefined (every recorded server) when --config
 * was left at its default and there is no such file: metrics stay readable outside a project.
 */
async function configScope(options: MetricsOptions): Promise<{ file: string; scope: ServerScope } | undefined> {
  if (options.config === DEFAULT_CONFIG && !existsSync(path.resolve(options.config))) return undefined;
  const { config } = await loadContext(options, 'warn');
  return { file: config.file, scope: new Map(config.servers.map((s) => [s.key, serverIdentity(s)])) };
}

/** Table labels: the key, with the identity when the rows hold more than one identity of that key. */
function serverLabels(stats: readonly ToolStats[]): (s: ToolStats) => string {
  const identities = new Map<string, Set<string>>();
  for (const s of stats) identities.set(s.server, (identities.get(s.server) ?? new Set()).add(s.identity));
  return (s) => (identities.get(s.server)!.size > 1 ? `${s.server} #${s.identity || 'unknown'}` : s.server);
}

export async function metricsCommand(options: MetricsOptions): Promise<void> {
  const since = options.since === undefined ? undefined : parseSince(options.since);
  const scoped = await configScope(options);
  const dataDir = dataDirOf(options);
  const store = openExistingStore(dataDir);
  let stats: ToolStats[] = [];
  try {
    stats = store?.metrics.toolStats({ server: options.server, tool: options.tool, since, ...(scoped && { scope: scoped.scope }) }) ?? [];
  } finally {
    store?.close();
  }
  if (options.json) return printJson(stats); // the store's ToolStats, as get_tool_metrics and GET /api/metrics give them

  if (stats.length === 0) {
    const scope = [
      options.server && `server "${options.server}"`,
      options.tool && `tool "${options.tool}"`,
      since !== undefined && `since ${utcTime(since)}`,
      scoped && `the servers of ${scoped.file}`,
    ].filter(Boolean);
    const where = store ? `in ${path.join(dataDir, DEFAULT_DB_FILE)}` : `(no store yet at ${path.join(dataDir, DEFAULT_DB_FILE)}; "switchboard serve" creates it)`;
    const hint = options.tool ? ' Tool names are the server\u2019s own names (not the exposed <server>_<tool> ones).' : '';
    process.stdout.write(`No calls recorded${scope.length ? ` for ${scope.join(', ')}` : ''} ${where}.${hint}\n`);
    return;
  }
  const now = Date.now();
  const label = serverLabels(stats);
  const rows = stats.map((s) => [
    label(s),
    s.tool,
    String(s.calls),
    String(s.successes),
    String(s.failures),
    String(s.cancelled),
    percent(s.successRate),
    milliseconds(s.p50Ms),
    milliseconds(s.p95Ms),
    milliseconds(s.p99Ms),
    ago(s.lastCalledAt, now),
    s.lastError ? `${ago(s.lastError.at, now)}: ${s.lastError.message}` : '',
  ]);
  const headers = ['SERVER', 'TOOL', 'CALLS', 'OK', 'FAILED', 'CANCELLED', 'SUCCESS', 'P50 MS', 'P95 MS', 'P99 MS', 'LAST CALLED', 'LAST ERROR'];
  const total = stats.reduce((sum, s) => sum + s.calls, 0);
  process.stdout.write(`${table(headers, rows, 80)}\n`);
  process.stdout.write(`${stats.length} tool(s), ${total} call(s)${since !== undefined ? ` since ${utcTime(since)}` : ''}\n`);
}
