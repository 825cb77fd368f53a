// Owns the zod schemas of the settings: the "switchboard" block of .mcp.json and the whole of
// switchboard.json. They are built on first use, not when the config layer loads: most configs have
// no settings, and constructing these schemas with all their checks was the larger part of the
// config module's start-up cost (docs/performance.md, issue 17, eleventh pass).
import { z } from 'zod';

function buildSettingsSchemas() {
  const SEPARATOR = /^[A-Za-z0-9_-]{1,4}$/;

  // Strict objects: a misspelt setting is an error, not a silently ignored key.
  const httpSettingsSchema = z.strictObject({
    host: z.string().min(1).optional(),
    port: z.int().min(0).max(65535).optional(),
    allowedOrigins: z.array(z.string().min(1)).optional(),
    allowedHosts: z.array(z.string().min(1)).optional(),
    /** Loopback binds only: state-changing admin routes (/api POST/PUT/DELETE) without a client token. */
    unauthenticatedAdmin: z.boolean().optional(),
  });

  const resilienceSettingsSchema = z.strictObject({
    lazy: z.boolean().optional(),
    connectTimeoutMs: z.int().min(1).optional(),
    maxRequestMs: z.int().min(1).optional(),
    retry: z.strictObject({ maxAttempts: z.int().min(1).max(100).optional(), initialDelayMs: z.int().min(1).optional(), maxDelayMs: z.int().min(1).optional() }).optional(),
    breaker: z.strictObject({ failureThreshold: z.int().min(1).optional(), halfOpenAfterMs: z.int().min(1).optional() }).optional(),
    healthCheck: z.strictObject({ intervalMs: z.int().min(0).optional(), timeoutMs: z.int().min(1).optional(), failuresBeforeRestart: z.int().min(1).optional() }).optional(),
    shutdownGraceMs: z.int().min(0).optional(),
  });

  /** An OpenAI-compatible embeddings endpoint for semantic and hybrid tool search. */
  const embeddingSettingsSchema = z.strictObject({
    baseUrl: z.string().regex(/^https?:\/\/[^\s]+$/, { message: 'must be an http:// or https:// URL up to the API version, e.g. http://127.0.0.1:11434/v1' }),
    model: z.string().min(1),
    apiKeyEnv: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, { message: 'must be the NAME of an environment variable holding the key (never the key itself)' }).optional(),
    dimensions: z.int().min(1).max(16384).optional(),
    batchSize: z.int().min(1).max(2048).optional(),
    timeoutMs: z.int().min(1).optional(),
  });

  /** The `llm` search mode: a chat model re-ranks the first stage's top candidates. */
  const llmRerankSettingsSchema = z.strictObject({
    baseUrl: z.string().regex(/^https?:\/\/[^\s]+$/, { message: 'must be an http:// or https:// URL up to the API version, e.g. http://127.0.0.1:11434/v1' }).optional(),
    model: z.string().min(1).optional(),
    apiKeyEnv: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, { message: 'must be the NAME of an environment variable holding the key (never the key itself)' }).optional(),
    sampling: z.boolean().optional(),
    candidates: z.int().min(2).max(50).optional(),
    timeoutMs: z.int().min(1).max(120_000).optional(),
    maxAnswerTokens: z.int().min(16).max(4096).optional(),
    maxPromptTokens: z.int().min(256).max(32_000).optional(),
  });

  /** Tool search: default mode, embeddings, learning from use, success-rate priors. */
  const searchSettingsSchema = z.strictObject({
    mode: z.enum(['lexical', 'semantic', 'hybrid']).optional(),
    embeddings: embeddingSettingsSchema.optional(),
    learning: z.boolean().optional(),
    learningHalfLifeDays: z.number().positive().max(3650).optional(),
    priors: z.boolean().optional(),
    llm: llmRerankSettingsSchema.optional(),
  });

  // --- Client authentication and limits (issue #14) ---
  const TOKEN_HASH = /^sha256:[0-9a-f]{64}$/;
  const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

  /** One HTTP client allowed in: its token (hashed, or the name of an env variable holding it) and its scope. */
  const clientSchema = z
    .strictObject({
      name: z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, { message: 'must be 1 to 64 characters from A-Z a-z 0-9 _ . -' }),
      tokenHash: z.string().regex(TOKEN_HASH, { message: 'must be "sha256:" and 64 hex digits, as printed by `switchboard token create <client>`' }).optional(),
      tokenEnv: z.string().regex(ENV_NAME, { message: 'must be the NAME of an environment variable holding the token (never the token itself)' }).optional(),
      /** Server keys (globs) the client may reach; absent: every server. */
      servers: z.array(z.string().min(1)).optional(),
      /** Tool globs, matched against `server.tool` and the exposed name; absent: every tool of its servers. */
      tools: z.array(z.string().min(1)).optional(),
      mode: z.enum(['passthrough', 'toolset', 'meta', 'auto']).optional(),
      toolset: z.string().min(1).optional(),
      /** May use the state-changing admin routes. */
      admin: z.boolean().optional(),
      /** Requests per minute (HTTP requests of every kind); absent: limits.requestsPerMinute. */
      requestsPerMinute: z.int().min(1).optional(),
      /** Open MCP sessions at once; absent: limits.sessionsPerClient. */
      maxSessions: z.int().min(1).optional(),
    })
    .refine((c) => (c.tokenHash === undefined) !== (c.tokenEnv === undefined), { message: 'needs exactly one of "tokenHash" or "tokenEnv"' });

  const limitsSettingsSchema = z.strictObject({
    /** Bytes of a request body before a session exists (initialize). */
    maxInitializeBodyBytes: z.int().min(1024).optional(),
    /** Bytes of any other request body. */
    maxBodyBytes: z.int().min(1024).optional(),
    /** Nesting depth of request params (arrays and objects). */
    maxJsonDepth: z.int().min(8).max(10_000).optional(),
    sessionsPerClient: z.int().min(1).optional(),
    concurrentCallsPerSession: z.int().min(1).optional(),
    /** Characters of text/binary content in one tool result; more is cut with a notice. */
    maxResultChars: z.int().min(1024).optional(),
    /** Characters of a tool name accepted (longer: -32602, never stored). */
    maxToolNameLength: z.int().min(16).max(4096).optional(),
    /** Characters of a search query kept for learning. */
    maxQueryLength: z.int().min(16).max(10_000).optional(),
    /** Learned queries one session may contribute. */
    learnedQueriesPerSession: z.int().min(0).optional(),
    /** Distinct teachers (clients, else sessions) a learned query needs before it changes the shared ranking. */
    learningQuorum: z.int().min(1).max(100).optional(),
    requestsPerMinute: z.int().min(1).optional(),
  });

  // Description optimization (src/optimize, docs/optimization.md).
  const envName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, { message: 'must be the NAME of an environment variable holding the key (never the key itself)' });

  /** One evaluation/generation backend: a model endpoint, the claude CLI, or the offline retrieval backend. */
  const optimizationBackendSchema = z.strictObject({
    name: z.string().regex(/^[A-Za-z0-9_.-]{1,40}$/, { message: 'must be 1 to 40 characters from A-Z a-z 0-9 _ . -' }),
    type: z.enum(['retrieval', 'openai', 'anthropic', 'claude-code', 'sampling']),
    baseUrl: z.string().regex(/^https?:\/\/[^\s]+$/, { message: 'must be an http:// or https:// URL' }).optional(),
    model: z.string().min(1).optional(),
    apiKeyEnv: envName.optional(),
    /** claude-code: the executable (default "claude"). */
    command: z.string().min(1).optional(),
    timeoutMs: z.int().min(1).max(600_000).optional(),
  });

  /** The promotion rule's thresholds (every one configurable; defaults in src/optimize/rule.ts). */
  const promotionRuleSchema = z.strictObject({
    minGain: z.number().min(0).max(1).optional(),
    alpha: z.number().gt(0).lt(1).optional(),
    maxCategoryDrop: z.number().min(0).max(1).optional(),
    categoryBoundLevel: z.number().gt(0).lt(1).optional(),
    minNegativeRate: z.number().min(0).max(1).optional(),
    paraphraseKeep: z.number().min(0).max(1).optional(),
    beatParaphraseControl: z.boolean().optional(),
    noStealing: z.boolean().optional(),
    holdoutNoCategoryDrop: z.boolean().optional(),
    holdoutOverallAtLeastCanonical: z.boolean().optional(),
  });

  const optimizationSettingsSchema = z.strictObject({
    enabled: z.boolean().optional(),
    backends: z.array(optimizationBackendSchema).max(20).optional(),
    candidates: z.int().min(1).max(20).optional(),
    repeats: z.int().min(1).max(20).optional(),
    rule: promotionRuleSchema.optional(),
  });

  /** Plain description overrides: {"<server>": {"<tool>": "text"}}. */
  const descriptionsSettingsSchema = z.record(z.string().min(1), z.record(z.string().min(1), z.string().min(1).max(4000)));

  /** Per-run log files: at most the newest `files`, none last written more than `days` days ago (0: no limit of that kind). */
  const logRetentionSchema = z.strictObject({
    files: z.int().min(0).max(100_000).optional(),
    days: z.int().min(0).max(3650).optional(),
  });

  /** The `"switchboard"` block, or the whole of switchboard.json. Every key optional; see DEFAULT_SETTINGS. */
  const settingsSchema = z.strictObject({
    separator: z
      .string()
      .regex(SEPARATOR, { message: 'must be 1 to 4 characters from A-Z a-z 0-9 _ - (the only ones tool names allow)' })
      .optional(),
    nameBudget: z.int().min(16).max(64).optional(),
    http: httpSettingsSchema.optional(),
    sessionIdleMs: z.int().min(1).optional(),
    isolatedIdleMs: z.int().min(0).optional(),
    requestTimeoutMs: z.int().min(1).optional(),
    listChangedDebounceMs: z.int().min(0).optional(),
    listTimeoutMs: z.int().min(0).max(600_000).optional(),
    resilience: resilienceSettingsSchema.optional(),
    preconnect: z.array(z.string().min(1)).optional(),
    mode: z.enum(['passthrough', 'toolset', 'meta', 'auto']).optional(),
    metricsRetentionDays: z.int().min(0).max(3650).optional(),
    recordCalls: z.boolean().optional(),
    includeMetrics: z.boolean().optional(),
    autoRetryFallback: z.boolean().optional(),
    keepTools: z.array(z.string().min(1)).optional(),
    maxTools: z.int().min(1).optional(),
    tokenBudget: z.int().min(1).optional(),
    maxFallbacks: z.int().min(0).max(20).optional(),
    logFile: z.union([z.boolean(), z.string().min(1)]).optional(),
    logRetention: logRetentionSchema.optional(),
    logRequests: z.boolean().optional(),
    logArguments: z.boolean().optional(),
    search: searchSettingsSchema.optional(),
    clients: z.array(clientSchema).max(1000).optional(),
    limits: limitsSettingsSchema.optional(),
    descriptions: descriptionsSettingsSchema.optional(),
    optimization: optimizationSettingsSchema.optional(),
    // Definition pinning (issue #14 item 5; docs/security.md).
    pinning: z.enum(['warn', 'strict', 'off']).optional(),
    // Protocol eras served to clients (issue #15; docs/protocol.md).
    inboundEra: z.enum(['auto', 'legacy']).optional(),
    // How long a bridged call waits for its client's retry (issue #15; docs/protocol.md).
    inputRequiredTtlMs: z.int().min(1000).max(86_400_000).optional(),
  });

  /** Known keys of each settings object, by path, for "did you mean" hints. */
  const SETTINGS_KEYS: Readonly<Record<string, readonly string[]>> = {
    '': Object.keys(settingsSchema.shape),
    http: Object.keys(httpSettingsSchema.shape),
    resilience: Object.keys(resilienceSettingsSchema.shape),
    search: Object.keys(searchSettingsSchema.shape),
    logRetention: Object.keys(logRetentionSchema.shape),
    'search.embeddings': Object.keys(embeddingSettingsSchema.shape),
    limits: Object.keys(limitsSettingsSchema.shape),
    optimization: Object.keys(optimizationSettingsSchema.shape),
    'optimization.rule': Object.keys(promotionRuleSchema.shape),
    'search.llm': Object.keys(llmRerankSettingsSchema.shape),
  };

  return { settingsSchema, SETTINGS_KEYS };
}

type SettingsSchemas = ReturnType<typeof buildSettingsSchemas>;
let built: SettingsSchemas | undefined;

/** The settings schema and the known keys of each settings object, built on the first call. */
export function settingsSchemas(): SettingsSchemas {
  return (built ??= buildSettingsSchemas());
}

/** A validated settings block: every key optional (DEFAULT_SETTINGS in schema.ts fills the rest). */
export type SettingsInput = z.infer<SettingsSchemas['settingsSchema']>;
