// Owns the zod schemas for .mcp.json server entries, and DEFAULT_SETTINGS (the settings block's
// schemas are in settings-schema.ts, built only for a config that has settings).
import { z } from 'zod';
import { isPlainObject } from './expand.js';
import { entryType } from './raw-entries.js';
import type { ClientSettings, OptimizationBackendSettings, SwitchboardSettings } from './types.js';

/**
 * How config files are parsed: without zod's compiled fast path. zod compiles an object schema's
 * parser (`new Function`) at its first parse, which pays from the second parse on; a config is
 * parsed once per start and per edit, so compiling made loading it ~2 ms slower per object schema
 * (the first load of a one-server config: 4.7 -> 2.8 ms for its entry alone).
 */
export const CONFIG_PARSE = { jitless: true } as const;

/** Every `type` a server entry may have; a missing type means stdio, or http when the entry has a `url`. */
export const SERVER_TYPES = ['stdio', 'http', 'streamable-http', 'streamableHttp', 'sse'] as const;
export type ServerType = (typeof SERVER_TYPES)[number];
const REMOTE_TYPES = ['http', 'streamable-http', 'streamableHttp', 'sse'] as const;

const stringMap = z.record(z.string(), z.string());

const commonFields = {
  enabledTools: z.array(z.string().min(1)).optional(),
  disabledTools: z.array(z.string().min(1)).optional(),
  lazy: z.boolean().optional(),
  ping: z.boolean().optional(),
  requestTimeoutMs: z.int().min(1).optional(),
  disabled: z.boolean().optional(),
  /** Some clients write `"enabled": false` instead of `"disabled": true`. */
  enabled: z.boolean().optional(),
  description: z.string().optional(),
};

const remoteUrl = z.string().superRefine((value, ctx) => {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    ctx.addIssue({ code: 'custom', message: 'must be a valid URL' });
    return;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    ctx.addIssue({ code: 'custom', message: `must be an http:// or https:// URL (got ${url.protocol}//)` });
  }
});

// Loose objects: other tools add their own fields (VS Code's envFile, dev, ...), which we ignore.
export const stdioEntrySchema = z.looseObject({
  type: z.literal('stdio'),
  command: z.string().min(1),
  args: z.array(z.string()).optional(),
  env: stringMap.optional(),
  cwd: z.string().min(1).optional(),
  /** Pass the gateway's whole environment to the child (default: only `env` plus PATH, HOME, USER, SHELL, TERM, LOGNAME). */
  inheritEnv: z.boolean().optional(),
  ...commonFields,
});

/** OAuth for a remote server that needs a login (docs/oauth.md); every field optional. */
export const oauthEntrySchema = z.strictObject({
  /** A client id registered with the authorization server beforehand (no dynamic registration then). */
  clientId: z.string().min(1).optional(),
  /** Its secret, for a confidential client (use ${VAR}: the value is expanded from the environment). */
  clientSecret: z.string().min(1).optional(),
  /** Scopes to ask for (default: what the server's metadata lists). */
  scopes: z.array(z.string().regex(/^[\x21\x23-\x5B\x5D-\x7E]+$/, { message: 'must be one OAuth scope token (no spaces or quotes)' })).optional(),
  /** false: never send the RFC 8707 `resource` parameter (identity providers that reject it). */
  sendResource: z.boolean().optional(),
  /** The loopback port `switchboard login` listens on for the redirect (default: a free one). */
  redirectPort: z.int().min(1).max(65535).optional(),
});

export const remoteEntrySchema = z.looseObject({
  type: z.enum(REMOTE_TYPES),
  url: remoteUrl,
  headers: stringMap.optional(),
  oauth: oauthEntrySchema.optional(),
  /** Protocol era spoken to this server (docs/protocol.md): auto probes with server/discover. */
  era: z.enum(['auto', 'legacy', '2026-07-28']).optional(),
  ...commonFields,
});

/** Fills in the implied `type` of an entry written without one (raw-entries.ts), so the union below can discriminate. */
function inferType(entry: unknown): unknown {
  if (!isPlainObject(entry) || entry.type !== undefined) return entry;
  return { ...entry, type: entryType(entry) };
}

/** One value of `mcpServers` / `servers`. */
export const serverEntrySchema = z.preprocess(inferType, z.discriminatedUnion('type', [stdioEntrySchema, remoteEntrySchema]));
export type ServerEntry = z.infer<typeof serverEntrySchema>;

/** The top level of a config file; unknown top-level keys (`$schema`, other tools' keys) are ignored. */
export const configFileSchema = z.looseObject({
  mcpServers: z.record(z.string(), z.unknown()).optional(),
  servers: z.record(z.string(), z.unknown()).optional(),
  /** VS Code's prompt definitions; accepted and ignored. */
  inputs: z.unknown().optional(),
  switchboard: z.unknown().optional(),
});

/** The one place settings defaults live. Frozen: copy before changing. */
export const DEFAULT_SETTINGS: SwitchboardSettings = Object.freeze({
  separator: '_',
  nameBudget: 48,
  http: Object.freeze({
    host: '127.0.0.1',
    port: 3333,
    allowedOrigins: Object.freeze([]) as unknown as string[],
    allowedHosts: Object.freeze([]) as unknown as string[],
    unauthenticatedAdmin: false,
  }),
  sessionIdleMs: 30 * 60 * 1000,
  isolatedIdleMs: 5 * 60 * 1000,
  requestTimeoutMs: 60_000,
  listChangedDebounceMs: 100,
  listTimeoutMs: 3000,
  resilience: Object.freeze({
    lazy: true,
    connectTimeoutMs: 30_000,
    maxRequestMs: 60 * 60 * 1000,
    retry: Object.freeze({ maxAttempts: 5, initialDelayMs: 1000, maxDelayMs: 16_000 }),
    breaker: Object.freeze({ failureThreshold: 5, halfOpenAfterMs: 30_000 }),
    healthCheck: Object.freeze({ intervalMs: 30_000, timeoutMs: 5000, failuresBeforeRestart: 2 }),
    shutdownGraceMs: 1000,
  }),
  preconnect: Object.freeze([]) as unknown as string[],
  mode: 'passthrough',
  metricsRetentionDays: 7,
  recordCalls: true,
  includeMetrics: false,
  autoRetryFallback: false,
  keepTools: Object.freeze([]) as unknown as string[],
  maxTools: 40,
  tokenBudget: 20_000,
  maxFallbacks: 3,
  logFile: true,
  logRetention: Object.freeze({ files: 20, days: 14 }),
  logRequests: false,
  logArguments: false,
  search: Object.freeze({ learning: true, learningHalfLifeDays: 30, priors: true }),
  clients: Object.freeze([]) as unknown as ClientSettings[],
  limits: Object.freeze({
    maxInitializeBodyBytes: 1024 * 1024,
    maxBodyBytes: 4 * 1024 * 1024,
    maxJsonDepth: 64,
    sessionsPerClient: 64,
    concurrentCallsPerSession: 32,
    maxResultChars: 32 * 1024 * 1024,
    maxToolNameLength: 256,
    maxQueryLength: 500,
    learnedQueriesPerSession: 20,
    learningQuorum: 2,
    requestsPerMinute: 1200,
  }),
  descriptions: Object.freeze({}) as Record<string, Record<string, string>>,
  optimization: Object.freeze({ enabled: false, backends: Object.freeze([]) as unknown as OptimizationBackendSettings[], candidates: 4, repeats: 3, rule: Object.freeze({}) }),
  pinning: 'warn',
  inboundEra: 'auto',
  inputRequiredTtlMs: 10 * 60 * 1000,
});
