// Owns validating "switchboard" settings blocks and merging them over DEFAULT_SETTINGS.
import { ConfigError } from './errors.js';
import { describeIssue } from './issues.js';
import { DEFAULT_SETTINGS, SETTINGS_KEYS, settingsSchema, type SettingsInput } from './schema.js';
import type { SwitchboardSettings } from './types.js';

/**
 * Validates one settings block. `file` is where it came from; `fieldPrefix` is where the block sits in
 * that file ('switchboard' inside .mcp.json, '' for switchboard.json), so errors name the exact field.
 */
export function parseSettingsBlock(block: unknown, file: string, fieldPrefix: string): SettingsInput {
  const result = settingsSchema.safeParse(block);
  if (result.success) return result.data;
  const { field, reason } = describeIssue(result.error.issues[0], block, {
    knownKeys: (path) => SETTINGS_KEYS[path],
    keyNoun: 'setting',
  });
  const full = [fieldPrefix, field].filter(Boolean).join(field.startsWith('[') ? '' : '.');
  throw new ConfigError(full ? reason : `settings ${reason}`, { file, field: full || undefined });
}

/** Applies `override` over `base`: every key given in `override` wins; `http` merges key by key. */
export function mergeSettings(base: SwitchboardSettings, override: SettingsInput): SwitchboardSettings {
  const http = { ...base.http, ...definedOnly(override.http ?? {}) };
  return {
    ...base,
    ...definedOnly(override),
    http: { ...http, allowedOrigins: [...http.allowedOrigins], allowedHosts: [...http.allowedHosts] },
  };
}

/** Full settings from blocks in order of increasing precedence (later blocks win), over the defaults. */
export function resolveSettings(...blocks: SettingsInput[]): SwitchboardSettings {
  // Starting from a merge (not DEFAULT_SETTINGS itself) so the result never shares the frozen defaults.
  return blocks.reduce<SwitchboardSettings>((acc, block) => mergeSettings(acc, block), mergeSettings(DEFAULT_SETTINGS, {}));
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
