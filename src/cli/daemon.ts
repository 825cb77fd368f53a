// Owns `switchboard daemon start|stop|status|logs`: the background HTTP gateway of a data dir that
// every local client reaches through `switchboard connect` (docs/daemon.md). Thin: it parses, calls
// src/daemon, prints.
import path from 'node:path';
import { existsSync } from 'node:fs';
import { findDaemon, startDaemon, stopDaemon } from '../daemon/control.js';
import { daemonPaths, lockHolder, readState } from '../daemon/files.js';
import { dataDirOf } from './data-dir.js';
import type { CommonOptions } from './context.js';
import { printJson, table } from './format.js';
import { UsageError } from './errors.js';

export interface DaemonOptions extends CommonOptions {
  port?: string;
  json?: boolean;
  follow?: boolean;
  level?: string;
}


export function configOf(options: CommonOptions): string {
  const file = path.resolve(options.config);
  if (!existsSync(file)) {
    throw new UsageError(`no config at ${file}: pass --config <path> (try --config examples/demo.mcp.json), or copy your client's "mcpServers" into ./.mcp.json`);
  }
  return file;
}

export async function daemonStart(options: DaemonOptions): Promise<void> {
  const port = options.port === undefined ? 0 : Number(options.port);
  if (!(Number.isInteger(port) && port >= 0 && port <= 65535)) throw new UsageError(`--port must be a whole number from 0 to 65535 (got "${options.port}")`);
  const dataDir = dataDirOf(options);
  const running = await findDaemon(dataDir);
  if (running) {
    process.stderr.write(`switchboard: a daemon already runs for ${dataDir} (pid ${running.state.pid}, ${running.state.url}); "switchboard daemon stop" stops it.\n`);
    process.exitCode = 1;
    return;
  }
  const daemon = await startDaemon({ dataDir, config: configOf(options), port, ...(options.logLevel && { logLevel: options.logLevel }) });
  if (options.json) return printJson({ started: daemon.started, ...daemon.state });
  process.stdout.write(`Switchboard daemon ${daemon.started ? 'started' : 'already running'}: pid ${daemon.state.pid}, ${daemon.state.url}/mcp (config ${daemon.state.config}).\nClients connect with: switchboard connect --data-dir ${dataDir} --config ${daemon.state.config}\n`);
}

export async function daemonStop(options: DaemonOptions): Promise<void> {
  const result = await stopDaemon(dataDirOf(options));
  if (options.json) return printJson({ stopped: result.pid !== undefined, ...result });
  if (result.pid === undefined) process.stdout.write('No daemon was running.\n');
  else process.stdout.write(`Stopped the daemon (pid ${result.pid})${result.forced ? ' with SIGKILL after it ignored SIGTERM' : ''}.\n`);
}

interface ServerRow {
  key: string;
  state?: string;
  error?: string | null;
}

export async function daemonStatus(options: DaemonOptions): Promise<void> {
  const dataDir = dataDirOf(options);
  const daemon = await findDaemon(dataDir);
  if (!daemon) {
    const paths = daemonPaths(dataDir);
    const stale = readState(paths) ?? (lockHolder(paths) !== undefined ? { pid: lockHolder(paths) } : undefined);
    if (options.json) printJson({ running: false, dataDir, ...(stale && { stale }) });
    else process.stdout.write(`No daemon is running for ${dataDir}${stale ? ` (stale files of pid ${stale.pid} are cleaned up by the next start)` : ''}.\n`);
    process.exitCode = 3; // like `systemctl status`: not running
    return;
  }
  const headers = { authorization: `Bearer ${daemon.token}` };
  const [health, servers] = await Promise.all([
    fetch(`${daemon.state.url}/healthz`, { headers }).then((r) => r.json() as Promise<{ sessions: number }>),
    fetch(`${daemon.state.url}/api/servers`, { headers }).then((r) => r.json() as Promise<{ servers: ServerRow[]; sessions: number }>),
  ]);
  const uptimeMs = Date.now() - daemon.state.startedAt;
  if (options.json) return printJson({ running: true, ...daemon.state, uptimeMs, clients: health.sessions, servers: servers.servers });
  process.stdout.write(
    [
      `Switchboard daemon: running, pid ${daemon.state.pid}, ${daemon.state.url}/mcp`,
      `Uptime ${formatUptime(uptimeMs)}; ${health.sessions} client session(s) connected; config ${daemon.state.config}`,
      '',
      table(
        ['SERVER', 'STATE', 'ERROR'],
        servers.servers.map((s) => [s.key, s.state ?? '', s.error ?? '']),
        80,
      ),
      '',
    ].join('\n'),
  );
}

export function formatUptime(ms: number): string {
  const s = Math.floor(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${s % 60}s`;
  const h = Math.floor(m / 60);
  return h < 24 ? `${h}h ${m % 60}m` : `${Math.floor(h / 24)}d ${h % 24}h`;
}
