// Owns the rules a config file's server entries follow before any validation, stated once for both
// of their readers: the loader (load.ts), which validates each entry with zod afterwards, and the
// early start of `serve --stdio` (cli/serve-prestart.ts), which runs before zod and the SDK load and
// passes over whatever it cannot read (the loader reports it). Which object holds the entries, which
// keys may name a server, when an entry is disabled, the type of an entry written without one, which
// fields get ${VAR} expansion, how a stdio launch is made absolute, where the settings sidecar is.
// Deliberately free of zod: importing this module must stay cheap.
import path from 'node:path';
import { expandEnvDeep, isPlainObject } from './expand.js';
import type { StdioLaunch } from './types.js';

/** Name of the optional settings file looked for next to the config file. */
export const SETTINGS_FILE_NAME = 'switchboard.json';

/** The switchboard.json that belongs to a config file (undefined when the config file is one itself). */
export function settingsFileFor(file: string): string | undefined {
  if (path.basename(file) === SETTINGS_FILE_NAME) return undefined;
  return path.join(path.dirname(file), SETTINGS_FILE_NAME);
}

/** switchboard.json holds the settings directly; a lone "switchboard" wrapper is accepted too. */
export function unwrapSettingsFile(root: Record<string, unknown>): unknown {
  const keys = Object.keys(root);
  return keys.length === 1 && keys[0] === 'switchboard' ? root.switchboard : root;
}

/** Where a config file's server entries are, or why there are none to read. */
export type ServerList =
  | { field: 'mcpServers' | 'servers'; entries: Record<string, unknown> }
  | { problem: 'both' | 'none' | 'not an object' };

/** The server entries: "mcpServers" (Claude Code, Cursor, Claude Desktop) or "servers" (VS Code), never both. */
export function serverListOf(root: Record<string, unknown>): ServerList {
  if (root.mcpServers !== undefined && root.servers !== undefined) return { problem: 'both' };
  const field = root.mcpServers !== undefined ? 'mcpServers' : root.servers !== undefined ? 'servers' : undefined;
  if (field === undefined) return { problem: 'none' };
  const entries = root[field];
  return isPlainObject(entries) ? { field, entries } : { problem: 'not an object' };
}

/** Why `key` cannot name a server (undefined: it can). */
export function serverKeyProblem(key: string): string | undefined {
  if (key.trim() === '') return 'server keys must not be empty';
  // Records drop it when parsed; say so instead of losing the entry.
  if (key === '__proto__') return '"__proto__" cannot be a server key (it is reserved in JavaScript); rename the server';
  return undefined;
}

/** An entry is off with `"disabled": true`, or `"enabled": false` as some clients write it. */
export function isDisabledEntry(entry: { disabled?: unknown; enabled?: unknown }): boolean {
  return entry.disabled === true || entry.enabled === false;
}

/** The type of an entry: as written, or implied (http when it has a `url` and no `command`, else stdio). */
export function entryType(entry: Record<string, unknown>): unknown {
  if (entry.type !== undefined) return entry.type;
  return 'url' in entry && !('command' in entry) ? 'http' : 'stdio';
}

/** Neither stdio nor remote can be told without a `type` when an entry has both `command` and `url`. */
export function isAmbiguousEntry(entry: Record<string, unknown>): boolean {
  return entry.type === undefined && 'command' in entry && 'url' in entry;
}

/** Fields whose strings get ${VAR} expansion (values only, never keys). */
const EXPANDED_FIELDS = ['command', 'args', 'env', 'cwd', 'url', 'headers', 'oauth'] as const;

/**
 * A copy of an entry with ${VAR} expanded in EXPANDED_FIELDS. Throws what expandEnvDeep throws (an
 * UnsetVariableError for a variable without a default: the loader skips that entry), naming the field.
 */
export function expandEntry(entry: Record<string, unknown>, env: NodeJS.ProcessEnv): Record<string, unknown> {
  const out = { ...entry };
  for (const field of EXPANDED_FIELDS) {
    if (field in entry) out[field] = expandEnvDeep(entry[field], env, field);
  }
  return out;
}

/** What starts a stdio server, as written in its entry: the launch with `args` and `env` optional, `cwd` maybe relative. */
export type StdioEntryFields = Omit<StdioLaunch, 'args' | 'env'> & {
  args?: readonly string[];
  env?: Readonly<Record<string, string>>;
};

export function absoluteStdioLaunch(entry: StdioEntryFields, baseDir: string): StdioLaunch {
  return {
    command: entry.command,
    args: [...(entry.args ?? [])],
    env: { ...(entry.env ?? {}) },
    ...(entry.cwd !== undefined && { cwd: path.resolve(baseDir, entry.cwd) }),
    ...(entry.inheritEnv === true && { inheritEnv: true }),
  };
}

/**
 * The launch fields of an expanded stdio entry when they have the shapes the schema requires,
 * checked without zod (the early start's reading); undefined when any does not.
 */
export function plainStdioFields(entry: Record<string, unknown>): StdioEntryFields | undefined {
  const { command, args, env, cwd, inheritEnv } = entry;
  if (typeof command !== 'string' || command === '') return undefined;
  if (args !== undefined && !isStrings(args)) return undefined;
  if (env !== undefined && !(isPlainObject(env) && isStrings(Object.values(env)))) return undefined;
  if (cwd !== undefined && (typeof cwd !== 'string' || cwd === '')) return undefined;
  if (inheritEnv !== undefined && typeof inheritEnv !== 'boolean') return undefined;
  return { command, ...(args !== undefined && { args }), ...(env !== undefined && { env: env as Record<string, string> }), ...(cwd !== undefined && { cwd }), ...(inheritEnv !== undefined && { inheritEnv }) };
}

export function isStrings(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}
