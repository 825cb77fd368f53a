// Owns what every CLI command shares: resolving the config path and data dir, loading the config,
// and building a Gateway from it (settings mapped in one place).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultDataDir } from './data-dir.js';
import { ConfigError, loadConfig, markChildren, type LoadedConfig, type SwitchboardSettings } from '../config/index.js';
import { Gateway, gatewaySettingsOf, type GatewayServices } from '../gateway/gateway.js';
import { openDatabase, type OpenDatabaseOptions, type Store } from '../store/index.js';
import { createRootLogger, type Logger } from '../logging/logger.js';
import { DescriptionOverrides } from '../optimize/overrides.js';
import { DefinitionPins } from '../catalog/pinning.js';
import { moduleLogger } from '../logging/logger.js';
import { startRunLogging } from '../logging/run-log.js';
import type { LevelWithSilent } from 'pino';

export interface CommonOptions {
  config: string;
  dataDir?: string;
  logLevel?: string;
}

export interface CommandContext {
  config: LoadedConfig;
  dataDir: string;
  log: Logger;
  /** The log file this run writes (serve), when it has one. */
  logFile?: string;
}

/** A gateway run's logging flags (serve): they override the logFile / logRequests / logArguments settings. */
export interface RunLogFlags {
  /** A path (--log-file), false (--no-log-file), or undefined (the setting). */
  logFile?: string | boolean;
  logRequests?: boolean;
  logArguments?: boolean;
}

const DEMO_CONFIG = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../examples/demo.mcp.json');
/** What to do when there is no config file (a first run outside a project). */
const MISSING_CONFIG_HINT =
  `Pass --config <file> with your servers (to try Switchboard: --config ${DEMO_CONFIG}), ` +
  'or create this file from a client\'s config: copy the "mcpServers" object of your .mcp.json (Claude Code), ~/.cursor/mcp.json (Cursor) or claude_desktop_config.json (Claude Desktop) into it.';

/** SWITCHBOARD_DATA_DIR, else the per-user data folder (e.g. ~/.local/share/switchboard). */
export { defaultDataDir } from './data-dir.js';

export async function loadContext(options: CommonOptions, defaultLevel: LevelWithSilent, runLog?: RunLogFlags): Promise<CommandContext> {
  const level = (options.logLevel as LevelWithSilent | undefined) ?? defaultLevel;
  const config = await loadConfig(path.resolve(options.config)).catch((error: unknown) => {
    throw error instanceof ConfigError && error.reason === 'file not found' ? new ConfigError(`file not found. ${MISSING_CONFIG_HINT}`, { file: error.file }) : error;
  });
  // Servers this process starts inherit the marker: a copy of this gateway on the same file refuses to start.
  markChildren(config.file);
  if (!runLog) {
    const log = createRootLogger({ level });
    for (const warning of config.warnings) log.warn(warning.message);
    return { config, dataDir: path.resolve(options.dataDir ?? defaultDataDir()), log };
  }
  // A gateway run: the settings say where its log goes, so the logger is made after loading them.
  const dataDir = path.resolve(options.dataDir ?? defaultDataDir());
  const s = config.settings;
  const { log, file } = startRunLogging({
    level,
    dataDir,
    file: runLog.logFile ?? s.logFile,
    retention: { keepFiles: s.logRetention.files, keepDays: s.logRetention.days },
    logRequests: runLog.logRequests ?? s.logRequests,
    logArguments: runLog.logArguments ?? s.logArguments,
  });
  for (const warning of config.warnings) log.warn(warning.message);
  return { config, dataDir, log, ...(file && { logFile: file }) };
}

/** Opens the data dir's store (created on first use); the caller closes it after the gateway. */
export function openStore(dataDir: string, settings?: Pick<SwitchboardSettings, 'metricsRetentionDays' | 'search'>, extra: Pick<OpenDatabaseOptions, 'callJournal'> = {}): Store {
  return openDatabase(dataDir, { ...(settings && { metrics: { retentionDays: settings.metricsRetentionDays }, search: { halfLifeDays: settings.search.learningHalfLifeDays } }), ...extra });
}

export interface GatewayOverrides {
  connectTimeoutMs?: number;
  /** Force live listings (commands that report current state), whatever the settings say. */
  lazy?: boolean;
}

export function gatewayFor(config: LoadedConfig, overrides: GatewayOverrides = {}, services: GatewayServices = {}): Gateway {
  const s = config.settings;
  const settings = gatewaySettingsOf(s);
  return new Gateway({
    ...settings,
    resilience: { ...settings.resilience, connectTimeoutMs: overrides.connectTimeoutMs ?? settings.resilience.connectTimeoutMs },
    lazy: overrides.lazy ?? settings.lazy,
  }, {
    descriptions: new DescriptionOverrides({
      repository: services.store?.optimize,
      descriptions: s.descriptions,
      // A server changed a promoted tool: say so once (the promotion is marked stale in the store, `optimize status` shows it).
      onStale: (promotion, reason) => moduleLogger('optimize').warn({ server: promotion.server, tool: promotion.tool, reason }, 'promoted description is stale; the canonical description is served until the tool is evaluated again'),
    }),
    ...(services.store && { pins: new DefinitionPins({ repository: services.store.pins, mode: s.pinning, log: moduleLogger('pinning') }) }),
    ...services,
  });
}
