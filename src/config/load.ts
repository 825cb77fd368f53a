// Owns reading a config file (plus an optional switchboard.json beside it) into a validated LoadedConfig.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ConfigError } from './errors.js';
import { expandEnvDeep, isPlainObject, UnsetVariableError } from './expand.js';
import { describeIssue } from './issues.js';
import { JsonSyntaxError, parseJsonc } from './json.js';
import { configFileSchema, serverEntrySchema, type SettingsInput, type ServerEntry } from './schema.js';
import { parseSettingsBlock, resolveSettings } from './settings.js';
import { gatewayChain, selfReference } from './self-reference.js';
import type { ConfigWarning, LoadedConfig, ServerConfig } from './types.js';

export type { LoadedConfig, ServerConfig, SwitchboardSettings } from './types.js';

/** Name of the optional settings file looked for next to the config file. */
export const SETTINGS_FILE_NAME = 'switchboard.json';

/** Text of a switchboard.json to merge under the config file's own "switchboard" block. */
export interface SettingsSource {
  text: string;
  file: string;
}

/** Fields whose strings get ${VAR} expansion (values only, never keys). */
const EXPANDED_FIELDS = ['command', 'args', 'env', 'cwd', 'url', 'headers', 'oauth'] as const;

/**
 * Reads and validates `file`, and `switchboard.json` in the same folder when it exists.
 * Every problem is a ConfigError naming the file, server key and field.
 */
export async function loadConfig(file: string, env: NodeJS.ProcessEnv = process.env): Promise<LoadedConfig> {
  const text = await readConfigText(file, true);
  const sidecarFile = settingsFileFor(file);
  const sidecarText = sidecarFile === undefined ? undefined : await readConfigText(sidecarFile, false);
  return parseConfig(text!, file, env, sidecarText === undefined ? undefined : { text: sidecarText, file: sidecarFile! });
}

/** The switchboard.json that belongs to a config file (undefined when the config file is one itself). */
export function settingsFileFor(file: string): string | undefined {
  if (path.basename(file) === SETTINGS_FILE_NAME) return undefined;
  return path.join(path.dirname(file), SETTINGS_FILE_NAME);
}

async function readConfigText(file: string, required: boolean): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && !required) return undefined;
    const reason =
      code === 'ENOENT'
        ? `file not found${path.isAbsolute(file) ? '' : ` (looked for ${path.resolve(file)})`}`
        : code === 'EACCES' || code === 'EPERM'
          ? 'cannot read the file: permission denied'
          : code === 'EISDIR'
            ? 'is a directory, not a file'
            : `cannot read the file: ${(err as Error).message}`;
    throw new ConfigError(reason, { file }, { cause: err });
  }
}

/**
 * Validates config text. `file` is used for messages and to resolve relative `cwd`s; `settings` is the
 * content of a switchboard.json whose keys the file's own "switchboard" block overrides.
 */
export function parseConfig(text: string, file: string, env: NodeJS.ProcessEnv = process.env, settings?: SettingsSource): LoadedConfig {
  const absolute = path.resolve(file);
  const root = parseRoot(text, file);

  const top = configFileSchema.safeParse(root);
  if (!top.success) {
    const { field, reason } = describeIssue(top.error.issues[0], root);
    throw new ConfigError(reason, { file, field });
  }
  const { mcpServers, servers } = top.data;
  if (mcpServers !== undefined && servers !== undefined) {
    throw new ConfigError('has both "mcpServers" and "servers"; keep one of them', { file });
  }
  const entries = mcpServers ?? servers;
  if (entries === undefined) {
    throw new ConfigError(
      'no servers: expected a "mcpServers" object (Claude Code, Cursor, Claude Desktop) or a "servers" object (VS Code)',
      { file },
    );
  }

  // "__proto__" cannot be a server key (schema records drop it); say so instead of losing the entry.
  const rawEntries = root[mcpServers !== undefined ? 'mcpServers' : 'servers'];
  if (typeof rawEntries === 'object' && rawEntries !== null && Object.prototype.hasOwnProperty.call(rawEntries, '__proto__')) {
    throw new ConfigError('"__proto__" cannot be a server key (it is reserved in JavaScript); rename the server', { file, serverKey: '__proto__' });
  }
  const baseDir = path.dirname(absolute);
  // An entry that cannot be served (an unset variable, Switchboard itself) is skipped with a warning; the rest are served.
  const warnings: ConfigWarning[] = [];
  if (gatewayChain(env).includes(absolute)) {
    throw new ConfigError(
      'this gateway was started by a Switchboard gateway serving the same file, through one of its entries; it would start itself again without end. Remove the entry that runs Switchboard from this file',
      { file },
    );
  }
  const list: ServerConfig[] = [];
  for (const [key, raw] of Object.entries(entries)) {
    const server = parseServer(key, raw, { file, baseDir, env }, warnings);
    if (server) list.push(server);
  }

  const blocks: SettingsInput[] = [];
  if (settings) blocks.push(parseSettingsBlock(unwrapSettingsFile(parseRoot(settings.text, settings.file)), settings.file, ''));
  if (top.data.switchboard !== undefined) blocks.push(parseSettingsBlock(top.data.switchboard, file, 'switchboard'));

  return { file: absolute, servers: list, settings: resolveSettings(...blocks), warnings };
}

function parseRoot(text: string, file: string): Record<string, unknown> {
  let root: unknown;
  try {
    root = parseJsonc(text);
  } catch (err) {
    if (err instanceof JsonSyntaxError) throw new ConfigError(`invalid JSON: ${err.message}`, { file }, { cause: err });
    throw err;
  }
  if (!isPlainObject(root)) {
    const kind = root === null ? 'null' : Array.isArray(root) ? 'an array' : `a ${typeof root}`;
    throw new ConfigError(`the top level must be a JSON object (found ${kind})`, { file });
  }
  return root;
}

/** switchboard.json holds the settings directly; a lone "switchboard" wrapper is accepted too. */
function unwrapSettingsFile(root: Record<string, unknown>): unknown {
  const keys = Object.keys(root);
  return keys.length === 1 && keys[0] === 'switchboard' ? root.switchboard : root;
}

interface ServerContext {
  file: string;
  baseDir: string;
  env: NodeJS.ProcessEnv;
}

/** One entry, or undefined (with a warning pushed) when it is skipped. */
function parseServer(key: string, raw: unknown, ctx: ServerContext, warnings: ConfigWarning[]): ServerConfig | undefined {
  const where = { file: ctx.file, serverKey: key };
  if (key.trim() === '') throw new ConfigError('server keys must not be empty', where);
  if (isPlainObject(raw) && raw.type === undefined && 'command' in raw && 'url' in raw) {
    throw new ConfigError('has both "command" and "url"; add "type": "stdio" or "type": "http" to say which', where);
  }

  let expanded: unknown = raw;
  try {
    if (isPlainObject(raw)) expanded = expandFields(raw, ctx.env, where);
  } catch (err) {
    if (!(err instanceof UnsetVariableError)) throw err;
    const skipped = new ConfigError(`skipped: environment variable ${JSON.stringify(err.variable)} is not set (set it, or give a default: \${${err.variable}:-value}); the other servers are served`, { ...where, field: err.where });
    warnings.push({ serverKey: key, message: skipped.message });
    return undefined;
  }
  const result = serverEntrySchema.safeParse(expanded);
  if (!result.success) {
    const { field, reason } = describeIssue(result.error.issues[0], expanded);
    throw new ConfigError(field ? reason : `entry ${reason}`, { ...where, field: field || undefined });
  }
  const server = normalize(key, result.data, ctx.baseDir);
  const self = server.transport === 'stdio' && !server.disabled ? selfReference(server, ctx.baseDir) : undefined;
  if (self) {
    warnings.push({ serverKey: key, message: new ConfigError(`skipped: ${self}, which would start this gateway again from its own config without end (remove the entry, or point it at another config file)`, where).message });
    return undefined;
  }
  return server;
}

function expandFields(raw: Record<string, unknown>, env: NodeJS.ProcessEnv, where: { file: string; serverKey: string }) {
  const out = { ...raw };
  for (const field of EXPANDED_FIELDS) {
    if (!(field in raw)) continue;
    try {
      out[field] = expandEnvDeep(raw[field], env, field);
    } catch (err) {
      throw err instanceof ConfigError && !(err instanceof UnsetVariableError) ? err.withLocation(where) : err;
    }
  }
  return out;
}

function normalize(key: string, entry: ServerEntry, baseDir: string): ServerConfig {
  const disabled = entry.disabled === true || entry.enabled === false;
  const description = {
    ...(entry.description === undefined ? {} : { description: entry.description }),
    ...(entry.lazy === undefined ? {} : { lazy: entry.lazy }),
    ...(entry.ping === undefined ? {} : { ping: entry.ping }),
    ...(entry.requestTimeoutMs === undefined ? {} : { requestTimeoutMs: entry.requestTimeoutMs }),
    ...(entry.enabledTools === undefined ? {} : { enabledTools: [...entry.enabledTools] }),
    ...(entry.disabledTools === undefined ? {} : { disabledTools: [...entry.disabledTools] }),
  };
  if (entry.type === 'stdio') {
    return {
      key,
      transport: 'stdio',
      command: entry.command,
      args: [...(entry.args ?? [])],
      env: { ...(entry.env ?? {}) },
      ...(entry.cwd === undefined ? {} : { cwd: path.resolve(baseDir, entry.cwd) }),
      ...(entry.inheritEnv === true ? { inheritEnv: true } : {}),
      disabled,
      ...description,
    };
  }
  return {
    key,
    transport: entry.type === 'sse' ? 'sse' : 'http',
    url: entry.url,
    headers: { ...(entry.headers ?? {}) },
    ...(entry.oauth === undefined ? {} : { oauth: { ...entry.oauth, ...(entry.oauth.scopes && { scopes: [...entry.oauth.scopes] }) } }),
    ...(entry.era === undefined || entry.type === 'sse' ? {} : { era: entry.era }),
    disabled,
    ...description,
  };
}
