// Owns validating "switchboard" settings blocks and merging them over DEFAULT_SETTINGS.
import { ConfigError } from './errors.js';
import { describeIssue } from './issues.js';
import { CONFIG_PARSE, DEFAULT_SETTINGS } from './schema.js';
import { settingsSchemas, type SettingsInput } from './settings-schema.js';
import type { SwitchboardSettings } from './types.js';

/**
 * Validates one settings block. `file` is where it came from; `fieldPrefix` is where the block sits in
 * that file ('switchboard' inside .mcp.json, '' for switchboard.json), so errors name the exact field.
 */
export function parseSettingsBlock(block: unknown, file: string, fieldPrefix: string): SettingsInput {
  const { settingsSchema, SETTINGS_KEYS } = settingsSchemas();
  const result = settingsSchema.safeParse(block, CONFIG_PARSE);
  if (result.success) return result.data;
  const { field, reason } = describeIssue(result.error.issues[0], block, {
    knownKeys: (path) => SETTINGS_KEYS[path],
    keyNoun: 'setting',
  });
  const full = [fieldPrefix, field].filter(Boolean).join(field.startsWith('[') ? '' : '.');
  throw new ConfigError(full ? reason : `settings ${reason}`, { file, field: full || undefined });
}

/** Applies `override` over `base`: every key given in `override` wins; nested objects merge key by key. */
export function mergeSettings(base: SwitchboardSettings, override: SettingsInput): SwitchboardSettings {
  return deepMerge(base, override) as SwitchboardSettings;
}

/** A fresh copy of `base` with `override`'s defined values on top; arrays are replaced, objects merged. */
function deepMerge(base: unknown, override: unknown): unknown {
  if (override === undefined) return copy(base);
  if (!isPlainObject(base) || !isPlainObject(override)) return copy(override);
  const out: Record<string, unknown> = {};
  for (const key of new Set([...Object.keys(base), ...Object.keys(override)])) out[key] = deepMerge(base[key], override[key]);
  return out;
}

function copy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copy);
  if (isPlainObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, copy(v)]));
  return value;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Full settings from blocks in order of increasing precedence (later blocks win), over the defaults. */
export function resolveSettings(...blocks: SettingsInput[]): SwitchboardSettings {
  // Starting from a merge (not DEFAULT_SETTINGS itself) so the result never shares the frozen defaults.
  return blocks.reduce<SwitchboardSettings>((acc, block) => mergeSettings(acc, block), mergeSettings(DEFAULT_SETTINGS, {}));
}
