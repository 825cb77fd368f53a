// Owns what every CLI command shares: resolving the config path and data dir, loading the config,
// and building a Gateway from it (settings mapped in one place).
import path from 'node:path';
import envPaths from 'env-paths';
import { loadConfig, type LoadedConfig } from '../config/index.js';
import { Gateway } from '../gateway/gateway.js';
import { createRootLogger, type Logger } from '../logging/logger.js';
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
}

export function defaultDataDir(): string {
  return envPaths('switchboard', { suffix: '' }).data;
}

export async function loadContext(options: CommonOptions, defaultLevel: LevelWithSilent): Promise<CommandContext> {
  const log = createRootLogger({ level: (options.logLevel as LevelWithSilent | undefined) ?? defaultLevel });
  const config = await loadConfig(path.resolve(options.config));
  const dataDir = path.resolve(options.dataDir ?? defaultDataDir());
  return { config, dataDir, log };
}

export function gatewayFor(config: LoadedConfig, overrides: { connectTimeoutMs?: number } = {}): Gateway {
  const s = config.settings;
  const r = s.resilience;
  return new Gateway({
    separator: s.separator,
    nameBudget: s.nameBudget,
    requestTimeoutMs: s.requestTimeoutMs,
    listChangedDebounceMs: s.listChangedDebounceMs,
    resilience: {
      connectTimeoutMs: overrides.connectTimeoutMs ?? r.connectTimeoutMs,
      maxRequestMs: r.maxRequestMs,
      retry: { ...r.retry },
      breaker: { ...r.breaker },
      healthCheck: { ...r.healthCheck },
      shutdownGraceMs: r.shutdownGraceMs,
    },
  });
}
