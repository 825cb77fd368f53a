// Owns changing a config file from a running gateway (the admin API): read it, change its server entries, check
// that the whole result still loads (parseConfig: the same rules as at start-up), and write it atomically (a
// temporary file renamed over it, keeping its permissions). The config watcher then applies it live. Comments of
// a JSONC file are not kept (the file is written back as plain JSON).
import { readFile, stat } from 'node:fs/promises';
import { writeFileAtomic } from './atomic-file.js';
import { ConfigError } from './errors.js';
import { parseJsonc } from './json.js';
import { parseConfig } from './load.js';
import type { LoadedConfig } from './types.js';

type Json = Record<string, unknown>;

/** The server entries object of a parsed config file (mcpServers, or VS Code's servers), created when absent. */
function entriesOf(root: Json, file: string): Json {
  const key = root.servers !== undefined && root.mcpServers === undefined ? 'servers' : 'mcpServers';
  const entries = root[key];
  if (entries === undefined) return (root[key] = {}) as Json;
  if (typeof entries !== 'object' || entries === null || Array.isArray(entries)) throw new ConfigError(`"${key}" must be an object`, { file });
  return entries as Json;
}

/**
 * Applies `change` to the server entries of `file` and writes the result when it still loads; throws ConfigError
 * (naming the server and field) when it would not, leaving the file untouched. Returns the loaded result.
 */
export async function editServers(file: string, change: (entries: Json) => void, env: NodeJS.ProcessEnv = process.env): Promise<LoadedConfig> {
  const text = await readFile(file, 'utf8');
  const root = parseJsonc(text);
  if (typeof root !== 'object' || root === null || Array.isArray(root)) throw new ConfigError('the top level must be a JSON object', { file });
  change(entriesOf(root as Json, file));
  const next = `${JSON.stringify(root, null, 2)}\n`;
  const loaded = parseConfig(next, file, env);
  const { mode } = await stat(file);
  writeFileAtomic(file, next, mode & 0o777);
  return loaded;
}
