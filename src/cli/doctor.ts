// Owns `switchboard doctor`: checks what a working set-up needs and prints, for each problem, what
// to do: the Node version, the config (valid; each server's command found and variables set), the
// data dir (writable, private, its database one of ours), the daemon (running, stale), the HTTP
// port, which clients are set up to use the shim, and which remote servers need a login (one
// unauthenticated request each, see doctor-logins.ts). Starts no server. Exit 1 when a check failed.
import { accessSync, constants, existsSync, mkdirSync, statSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { CLIENT_KINDS, clientEnvironment, readClientFile, runsSwitchboardShim, serversAt, userLocation } from '../config/client-configs.js';
import { ConfigError, loadConfig, type LoadedConfig } from '../config/index.js';
import { findDaemon } from '../daemon/control.js';
import { daemonPaths, lockHolder, readState } from '../daemon/files.js';
import { openDatabase, DEFAULT_DB_FILE } from '../store/index.js';
import type { CommonOptions } from './context.js';
import { dataDirOf } from './data-dir.js';
import type { Check, Status } from './doctor-check.js';
import { printJson } from './format.js';
import { loginChecks } from './doctor-logins.js';

export type { Check, Status } from './doctor-check.js';

export interface DoctorOptions extends CommonOptions {
  json?: boolean;
  port?: string;
}

const MIN_NODE = [20, 19] as const;

function nodeCheck(version = process.versions.node): Check {
  const [major, minor] = version.split('.').map(Number) as [number, number];
  const ok = major > MIN_NODE[0] || (major === MIN_NODE[0] && minor >= MIN_NODE[1]);
  return ok
    ? { area: 'node', status: 'ok', message: `Node.js ${version}` }
    : { area: 'node', status: 'fail', message: `Node.js ${version} is older than ${MIN_NODE.join('.')}`, fix: 'install Node.js 20.19 or later (22 LTS recommended)' };
}

/** Whether `command` resolves: an absolute or relative path that exists, or a name on PATH. */
export function commandFound(command: string, cwd: string, env: NodeJS.ProcessEnv = process.env): boolean {
  if (command.includes('/') || command.includes('\\')) return existsSync(path.resolve(cwd, command));
  const extensions = process.platform === 'win32' ? (env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';') : [''];
  for (const dir of (env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
    for (const ext of extensions) {
      const candidate = path.join(dir, command + ext);
      try {
        accessSync(candidate, constants.X_OK);
        if (statSync(candidate).isFile()) return true;
      } catch {
        // not here
      }
    }
  }
  return false;
}

async function configChecks(file: string): Promise<{ checks: Check[]; config?: LoadedConfig }> {
  if (!existsSync(file)) {
    return { checks: [{ area: 'config', status: 'fail', message: `no config at ${file}`, fix: 'pass --config <path> (try examples/demo.mcp.json), or run "switchboard import" to copy your clients\' servers into one' }] };
  }
  let config: LoadedConfig;
  try {
    config = await loadConfig(file);
  } catch (error) {
    const message = error instanceof ConfigError ? error.message : (error as Error).message;
    return { checks: [{ area: 'config', status: 'fail', message, fix: 'fix the file as the message says, then run "switchboard doctor" again' }] };
  }
  const checks: Check[] = [{ area: 'config', status: 'ok', message: `${config.file}: ${config.servers.length} server(s)` }];
  for (const warning of config.warnings) checks.push({ area: `server ${warning.serverKey}`, status: 'warn', message: warning.message, fix: 'the server is skipped until this is fixed' });
  for (const server of config.servers) {
    const area = `server ${server.key}`;
    if (server.disabled) {
      checks.push({ area, status: 'info', message: 'disabled' });
      continue;
    }
    if (server.transport === 'stdio') {
      const cwd = server.cwd ?? path.dirname(config.file);
      checks.push(
        commandFound(server.command, cwd)
          ? { area, status: 'ok', message: `command "${server.command}" found` }
          : { area, status: 'fail', message: `command "${server.command}" not found (PATH, or relative to ${cwd})`, fix: `install it, or give its full path in "command"` },
      );
    } else {
      checks.push({ area, status: 'ok', message: `${server.transport} ${new URL(server.url).origin}` });
    }
  }
  return { checks, config };
}

function dataDirChecks(dataDir: string): Check[] {
  const checks: Check[] = [];
  try {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    accessSync(dataDir, constants.W_OK);
  } catch (error) {
    return [{ area: 'data dir', status: 'fail', message: `${dataDir} cannot be written: ${(error as Error).message}`, fix: 'pass --data-dir <dir> (or SWITCHBOARD_DATA_DIR) with a folder you can write' }];
  }
  const mode = statSync(dataDir).mode & 0o777;
  checks.push(
    mode & 0o077
      ? { area: 'data dir', status: 'warn', message: `${dataDir} is readable by others (mode ${mode.toString(8)}); it holds call history and tokens`, fix: `chmod 700 ${dataDir}` }
      : { area: 'data dir', status: 'ok', message: `${dataDir} (mode ${mode.toString(8)})` },
  );
  const file = path.join(dataDir, DEFAULT_DB_FILE);
  if (!existsSync(file)) {
    checks.push({ area: 'database', status: 'info', message: `${file} not created yet (the first serve or refresh creates it)` });
    return checks;
  }
  try {
    const store = openDatabase(dataDir);
    store.close();
    checks.push({ area: 'database', status: 'ok', message: file });
  } catch (error) {
    checks.push({ area: 'database', status: 'fail', message: (error as Error).message, fix: 'move the file aside (it is kept as it is, never re-initialized) or use another --data-dir' });
  }
  return checks;
}

async function daemonCheck(dataDir: string): Promise<Check> {
  const running = await findDaemon(dataDir);
  if (running) return { area: 'daemon', status: 'ok', message: `running: pid ${running.state.pid}, ${running.state.url}, config ${running.state.config}` };
  const paths = daemonPaths(dataDir);
  const stale = readState(paths)?.pid ?? lockHolder(paths);
  if (stale !== undefined) return { area: 'daemon', status: 'warn', message: `not running (stale files of pid ${stale} in ${paths.dir})`, fix: 'the next "switchboard daemon start" or "switchboard connect" cleans them up' };
  return { area: 'daemon', status: 'info', message: 'not running ("switchboard connect" starts it; "switchboard daemon start" to start it now)' };
}

function portCheck(port: number, host: string): Promise<Check> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', (error: NodeJS.ErrnoException) =>
      resolve(
        error.code === 'EADDRINUSE'
          ? { area: 'port', status: 'warn', message: `${host}:${port} is in use (another serve --http, or another program)`, fix: 'serve --http --port <other>, or --port 0 for any free port' }
          : { area: 'port', status: 'warn', message: `${host}:${port}: ${error.message}` },
      ),
    );
    server.listen(port, host, () => server.close(() => resolve({ area: 'port', status: 'ok', message: `${host}:${port} is free for serve --http` })));
  });
}

function clientChecks(): Check[] {
  const env = clientEnvironment();
  return CLIENT_KINDS.map((client): Check => {
    const location = userLocation(client, env);
    if (!existsSync(location.file)) return { area: `client ${client}`, status: 'info', message: `no ${location.file}` };
    try {
      const servers = serversAt(location, readClientFile(location.file)) ?? {};
      const names = Object.keys(servers);
      const shim = names.some((name) => runsSwitchboardShim(servers[name]));
      if (shim) return { area: `client ${client}`, status: 'ok', message: `uses the shim (${location.file})` };
      return { area: `client ${client}`, status: 'info', message: `${names.length} server(s) of its own in ${location.file}`, fix: `"switchboard install --client ${client}" moves them behind Switchboard` };
    } catch (error) {
      return { area: `client ${client}`, status: 'warn', message: `${location.file}: ${(error as Error).message}` };
    }
  });
}

const MARK: Record<Status, string> = { ok: 'ok  ', warn: 'warn', fail: 'FAIL', info: '--  ' };

export async function doctorCommand(options: DoctorOptions): Promise<void> {
  const dataDir = dataDirOf(options);
  const { checks: configured, config } = await configChecks(path.resolve(options.config));
  const port = options.port === undefined ? (config?.settings.http.port ?? 3333) : Number(options.port);
  const logins = config ? await loginChecks(config, dataDir) : [];
  const checks: Check[] = [nodeCheck(), ...configured, ...logins, ...dataDirChecks(dataDir), await daemonCheck(dataDir), await portCheck(port, config?.settings.http.host ?? '127.0.0.1'), ...clientChecks()];
  const failed = checks.filter((c) => c.status === 'fail').length;
  if (failed) process.exitCode = 1;
  if (options.json) return printJson({ ok: failed === 0, checks });
  const lines = checks.map((c) => `${MARK[c.status]}  ${c.area}: ${c.message}${c.fix && c.status !== 'ok' ? `\n        -> ${c.fix}` : ''}`);
  const warned = checks.filter((c) => c.status === 'warn').length;
  lines.push('', failed ? `${failed} problem(s) to fix, ${warned} warning(s).` : `No problems found${warned ? ` (${warned} warning(s))` : ''}.`);
  process.stdout.write(`${lines.join('\n')}\n`);
}
