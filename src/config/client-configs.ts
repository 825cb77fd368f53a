// Owns where MCP clients keep their server lists and in which shape: Claude Code (~/.claude.json,
// user and per-project, and a project's .mcp.json), Claude Desktop (claude_desktop_config.json),
// Cursor (~/.cursor/mcp.json, .cursor/mcp.json) and VS Code (the user profile's mcp.json with a
// "servers" object, .vscode/mcp.json), per platform. Reads entries as written (variables such as
// ${VAR} are kept, never expanded) and turns each into the entry shape Switchboard's file uses.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError } from './errors.js';
import { parseJsonc } from './json.js';

export const CLIENT_KINDS = ['claude-code', 'claude-desktop', 'cursor', 'vscode'] as const;
export type ClientKind = (typeof CLIENT_KINDS)[number];

/** Where to look: the home folder, platform and (Windows) %APPDATA%, and the project folder. */
export interface ClientEnvironment {
  home: string;
  platform: NodeJS.Platform;
  appData?: string;
  cwd: string;
}

export function clientEnvironment(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): ClientEnvironment {
  return { home: env.HOME || env.USERPROFILE || '', platform: process.platform, ...(env.APPDATA && { appData: env.APPDATA }), cwd };
}

/** One place a client keeps servers: a file, and where in it. */
export interface ClientConfigLocation {
  client: ClientKind;
  file: string;
  /** The object holding the servers: `mcpServers` (most), `servers` (VS Code). */
  key: 'mcpServers' | 'servers';
  /** Claude Code keeps a project's servers in ~/.claude.json under projects[<path>]. */
  project?: string;
  scope: 'user' | 'project';
}

/** The folder of per-user application data (macOS Application Support, Windows %APPDATA%, XDG config). */
function appSupport(env: ClientEnvironment): string {
  if (env.platform === 'darwin') return path.join(env.home, 'Library', 'Application Support');
  if (env.platform === 'win32') return env.appData ?? path.join(env.home, 'AppData', 'Roaming');
  return path.join(env.home, '.config');
}

/** Every location a client may keep servers in, user scope first (whether or not the file exists). */
export function clientLocations(client: ClientKind, env: ClientEnvironment): ClientConfigLocation[] {
  switch (client) {
    case 'claude-code':
      return [
        { client, file: path.join(env.home, '.claude.json'), key: 'mcpServers', scope: 'user' },
        { client, file: path.join(env.home, '.claude.json'), key: 'mcpServers', scope: 'project', project: env.cwd },
        { client, file: path.join(env.cwd, '.mcp.json'), key: 'mcpServers', scope: 'project' },
      ];
    case 'claude-desktop':
      return [{ client, file: path.join(appSupport(env), 'Claude', 'claude_desktop_config.json'), key: 'mcpServers', scope: 'user' }];
    case 'cursor':
      return [
        { client, file: path.join(env.home, '.cursor', 'mcp.json'), key: 'mcpServers', scope: 'user' },
        { client, file: path.join(env.cwd, '.cursor', 'mcp.json'), key: 'mcpServers', scope: 'project' },
      ];
    case 'vscode':
      return [
        { client, file: path.join(appSupport(env), 'Code', 'User', 'mcp.json'), key: 'servers', scope: 'user' },
        { client, file: path.join(env.cwd, '.vscode', 'mcp.json'), key: 'servers', scope: 'project' },
      ];
  }
}

/** The file a client's user-scope servers live in (where `install` writes the shim). */
export function userLocation(client: ClientKind, env: ClientEnvironment): ClientConfigLocation {
  return clientLocations(client, env)[0]!;
}

export type RawEntry = Record<string, unknown>;

/** The whole JSON of a client file ({} when it does not exist). */
export function readClientFile(file: string): Record<string, unknown> {
  if (!existsSync(file)) return {};
  const parsed = parseJsonc(readFileSync(file, 'utf8'));
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new ConfigError('is not a JSON object', { file });
  return parsed as Record<string, unknown>;
}

/** The servers object of one location, as written (undefined when the file or the object is absent). */
export function serversAt(location: ClientConfigLocation, json = readClientFile(location.file)): Record<string, RawEntry> | undefined {
  let holder: unknown = json;
  if (location.project !== undefined) holder = (json.projects as Record<string, unknown> | undefined)?.[location.project];
  const servers = (holder as Record<string, unknown> | undefined)?.[location.key];
  if (servers === undefined) return undefined;
  if (servers === null || typeof servers !== 'object' || Array.isArray(servers)) {
    throw new ConfigError(`"${location.key}" is not an object`, { file: location.file });
  }
  return servers as Record<string, RawEntry>;
}

/**
 * A client's entry in Switchboard's shape (Claude Code's): stdio `{command, args, env, cwd}`, remote
 * `{type: "http"|"sse", url, headers}`. Undefined with a reason when it cannot be carried over.
 */
export function toSwitchboardEntry(entry: RawEntry): { entry: RawEntry } | { skip: string } {
  if (entry === null || typeof entry !== 'object') return { skip: 'not an object' };
  const inputs = JSON.stringify(entry).match(/\$\{input:[^}]+\}/g);
  if (inputs) return { skip: `uses ${inputs[0]}, which only VS Code can fill in (put the value in an environment variable and use \${NAME})` };
  const type = typeof entry.type === 'string' ? entry.type.toLowerCase() : undefined;
  if (typeof entry.command === 'string' && (type === undefined || type === 'stdio')) {
    const out: RawEntry = { command: entry.command };
    for (const field of ['args', 'env', 'cwd'] as const) if (entry[field] !== undefined) out[field] = entry[field];
    if (entry.disabled === true) out.disabled = true;
    return { entry: out };
  }
  const url = entry.url ?? entry.serverUrl;
  if (typeof url === 'string') {
    const remote = type === 'sse' ? 'sse' : 'http'; // Cursor writes a url without a type: Streamable HTTP first
    const out: RawEntry = { type: remote, url };
    if (entry.headers !== undefined) out.headers = entry.headers;
    return { entry: out };
  }
  return { skip: `has neither a "command" nor a "url"${type ? ` (type "${type}")` : ''}` };
}

/**
 * Whether a client's server entry (raw, as the client wrote it) runs the Switchboard shim: its args hold
 * `connect` and something naming switchboard (the bin, the package, or its path). `import` skips such
 * entries and `doctor` counts a client that has one as set up.
 */
export function runsSwitchboardShim(entry: unknown): boolean {
  if (typeof entry !== 'object' || entry === null) return false;
  const { command, args } = entry as { command?: unknown; args?: unknown };
  if (!Array.isArray(args) || !args.includes('connect')) return false;
  return /switchboard/.test(`${typeof command === 'string' ? command : ''} ${JSON.stringify(args)}`);
}
