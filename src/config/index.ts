// Owns the public API of the config layer: loading, validating and watching .mcp.json and settings.
export { ConfigError, type ConfigErrorLocation } from './errors.js';
export { expandEnv, expandEnvDeep } from './expand.js';
export { parseJsonc, JsonSyntaxError } from './json.js';
export {
  DEFAULT_SETTINGS,
  SERVER_TYPES,
  type ServerType,
  serverEntrySchema,
  configFileSchema,
} from './schema.js';
export { settingsSchemas, type SettingsInput } from './settings-schema.js';
export { mergeSettings, resolveSettings, parseSettingsBlock } from './settings.js';
export { loadConfig, parseConfig, settingsFileFor, SETTINGS_FILE_NAME, type SettingsSource } from './load.js';
export { watchConfig, diffServers, type ConfigWatcher, type WatchConfigOptions, type ServerDiff } from './watch.js';
export { configsEqual } from './equal.js';
export { GATEWAY_CHAIN_ENV, childMarker, gatewayChain, markChildren } from './self-reference.js';
export type {
  LoadedConfig,
  ConfigWarning,
  ServerConfig,
  StdioServerConfig,
  StdioLaunch,
  RemoteServerConfig,
  OAuthOptions,
  SwitchboardSettings,
  HttpSettings,
  SearchSettings,
  ClientSettings,
  LimitSettings,
  OptimizationSettings,
  PinningMode,
  OptimizationBackendSettings,
} from './types.js';
