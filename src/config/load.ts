// Owns reading a config file (plus an optional switchboard.json beside it) into a validated LoadedConfig.
// The rules entries follow before validation (which list, keys, disabled, implied type, expansion, the
// absolute launch) are raw-entries.ts, shared with serve's early start, which cannot load zod.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ConfigError } from './errors.js';
import { isPlainObject, UnsetVariableError } from './expand.js';
import { describeIssue } from './issues.js';
import { JsonSyntaxError, parseJsonc } from './json.js';
import { CONFIG_PARSE, configFileSchema, serverEntrySchema, type ServerEntry } from './schema.js';
import type { SettingsInput } from './settings-schema.js';
import { parseSettingsBlock, resolveSettings } from './settings.js';
import { gatewayChain, selfReference } from './self-reference.js';
import { absoluteStdioLaunch, expandEntry, isAmbiguousEntry, isDisabledEntry, serverKeyProblem, serverListOf, settingsFileFor, unwrapSettingsFile } from './raw-entries.js';
import type { ConfigWarning, LoadedConfig, ServerConfig } from './types.js';

export type { LoadedConfig, ServerConfig, SwitchboardSettings } from './types.js';

export { SETTINGS_FILE_NAME, settingsFileFor } from './raw-entries.js';

/** Text of a switchboard.json to merge under the config file's own "switchboard" block. */
export interface SettingsSource {
  text: string;
  file: string;
}

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

  const top = configFileSchema.safeParse(root, CONFIG_PARSE);
  if (!top.success) {
    const { field, reason } = describeIssue(top.error.issues[0], root);
    throw new ConfigError(reason, { file, field });
  }
  // The schema has checked the shapes; the raw entries keep every key ("__proto__" included, which records drop).
  const list = serverListOf(root);
  if ('problem' in list) {
    throw new ConfigError(
      list.problem === 'both'
        ? 'has both "mcpServers" and "servers"; keep one of them'
        : 'no servers: expected a "mcpServers" object (Claude Code, Cursor, Claude Desktop) or a "servers" object (VS Code)',
      { file },
    );
  }
  for (const key of Object.keys(list.entries)) {
    const problem = serverKeyProblem(key);
    if (problem) throw new ConfigError(problem, { file, serverKey: key });
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
  const servers: ServerConfig[] = [];
  for (const [key, raw] of Object.entries(list.entries)) {
    const server = parseServer(key, raw, { file, baseDir, env }, warnings);
    if (server) servers.push(server);
  }

  const blocks: SettingsInput[] = [];
  if (settings) blocks.push(parseSettingsBlock(unwrapSettingsFile(parseRoot(settings.text, settings.file)), settings.file, ''));
  if (top.data.switchboard !== undefined) blocks.push(parseSettingsBlock(top.data.switchboard, file, 'switchboard'));

  return { file: absolute, servers, settings: resolveSettings(...blocks), warnings };
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

interface ServerContext {
  file: string;
  baseDir: string;
  env: NodeJS.ProcessEnv;
}

/** One entry, or undefined (with a warning pushed) when it is skipped. */
function parseServer(key: string, raw: unknown, ctx: ServerContext, warnings: ConfigWarning[]): ServerConfig | undefined {
  const where = { file: ctx.file, serverKey: key };
  if (isPlainObject(raw) && isAmbiguousEntry(raw)) {
    throw new ConfigError('has both "command" and "url"; add "type": "stdio" or "type": "http" to say which', where);
  }

  let expanded: unknown = raw;
  try {
    if (isPlainObject(raw)) expanded = expandEntry(raw, ctx.env);
  } catch (err) {
    if (!(err instanceof UnsetVariableError)) throw err instanceof ConfigError ? err.withLocation(where) : err;
    const skipped = new ConfigError(`skipped: environment variable ${JSON.stringify(err.variable)} is not set (set it, or give a default: \${${err.variable}:-value}); the other servers are served`, { ...where, field: err.where });
    warnings.push({ serverKey: key, message: skipped.message });
    return undefined;
  }
  const result = serverEntrySchema.safeParse(expanded, CONFIG_PARSE);
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

function normalize(key: string, entry: ServerEntry, baseDir: string): ServerConfig {
  const disabled = isDisabledEntry(entry);
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
      ...absoluteStdioLaunch(entry, baseDir),
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
