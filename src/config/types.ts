// Owns the shapes the rest of Switchboard sees after config is loaded and validated.

/** One downstream server, normalized from whatever client's .mcp.json dialect it was written in. */
export type ServerConfig =
  | ({
      key: string;
      transport: 'stdio';
      disabled: boolean;
      description?: string;
    } & StdioLaunch & ServerResilience)
  | ({
      key: string;
      transport: 'http' | 'sse';
      url: string;
      headers: Record<string, string>;
      /** OAuth choices for a server that needs a login (docs/oauth.md); absent: discovered, with dynamic registration. */
      oauth?: OAuthOptions;
      disabled: boolean;
      description?: string;
      /** The protocol era to speak to it: probe (auto), 2025 only (legacy, the default), or 2026-07-28 only. */
      era?: DownstreamEra;
    } & ServerResilience);

/**
 * What starts a stdio server, absolute: defaults filled in, `cwd` resolved against the config file's
 * folder. The loaded config, the early start of serve and the spawn spec all read this one shape.
 */
export interface StdioLaunch {
  command: string;
  args: string[];
  env: Record<string, string>;
  /** Absolute (a relative cwd in the file is resolved against the file's folder). */
  cwd?: string;
  /** The child gets the gateway's whole environment, not just `env` plus a safe base. */
  inheritEnv?: boolean;
}

/** A remote server's OAuth choices (its `oauth` field). */
export interface OAuthOptions {
  clientId?: string;
  clientSecret?: string;
  scopes?: string[];
  /** Send the RFC 8707 `resource` parameter (default true). */
  sendResource?: boolean;
  redirectPort?: number;
}
export type DownstreamEra = 'auto' | 'legacy' | '2026-07-28';

/** Per-server resilience choices (all optional; unset means the gateway-wide default). */
export interface ServerResilience {
  /** false: start at boot instead of on first use. */
  lazy?: boolean;
  /** false: the server does not answer ping, so no health checks. */
  ping?: boolean;
  /** Overrides the gateway's requestTimeoutMs for this server. */
  requestTimeoutMs?: number;
  /** Only these tools of the server are visible and callable (original names). */
  enabledTools?: string[];
  /** These tools of the server are invisible and cannot be called (original names). */
  disabledTools?: string[];
}

export type StdioServerConfig = Extract<ServerConfig, { transport: 'stdio' }>;
export type RemoteServerConfig = Extract<ServerConfig, { transport: 'http' | 'sse' }>;

export interface HttpSettings {
  host: string;
  port: number;
  allowedOrigins: string[];
  allowedHosts: string[];
  /** Loopback binds only: allow state-changing admin routes without a client token. */
  unauthenticatedAdmin: boolean;
}

export interface ResilienceSettings {
  /** Servers are started on first use (their tools listed from the cache until then). */
  lazy: boolean;
  /** How long one connection attempt may take. */
  connectTimeoutMs: number;
  /** A call is cancelled after this long even while it reports progress. */
  maxRequestMs: number;
  retry: { maxAttempts: number; initialDelayMs: number; maxDelayMs: number };
  breaker: { failureThreshold: number; halfOpenAfterMs: number };
  healthCheck: { intervalMs: number; timeoutMs: number; failuresBeforeRestart: number };
  /** After closing a child's stdin, wait this long before SIGTERM, and again before SIGKILL. */
  shutdownGraceMs: number;
}

export interface SwitchboardSettings {
  /** Between server key and tool name in exposed names. */
  separator: string;
  /** Maximum length of an exposed name. */
  nameBudget: number;
  http: HttpSettings;
  sessionIdleMs: number;
  /** A session's own downstream connections (sampling, elicitation or roots clients) stop after this long idle; 0: only when the session ends. */
  isolatedIdleMs: number;
  requestTimeoutMs: number;
  listChangedDebounceMs: number;
  /** A client's listing (and a per-server endpoint's first initialize) waits at most this long for servers still starting; they are announced with list_changed when they arrive. */
  listTimeoutMs: number;
  resilience: ResilienceSettings;
  /** Server keys started at boot even when lazy. */
  preconnect: string[];
  /** What /mcp and the stdio face serve: every tool, the equipped toolset, the meta-tools, or auto (passthrough up to maxTools, else meta). */
  mode: 'passthrough' | 'toolset' | 'meta' | 'auto';
  /** Raw call rows older than this many whole UTC days are rolled up and deleted. */
  metricsRetentionDays: number;
  /** Record every tool call in the store (outcome, latency); Prometheus counters are kept either way. */
  recordCalls: boolean;
  /** Listed tools carry their success rate and median latency in `_meta["switchboard/metrics"]`. */
  includeMetrics: boolean;
  /** When a tool call fails, try the first fallback suggestion with the same arguments. */
  autoRetryFallback: boolean;
  /** Meta mode: exposed tool names always listed directly next to the meta-tools. */
  keepTools: string[];
  /** Auto mode switches to meta above this many exposed tools; serve warns above it. */
  maxTools: number;
  /** serve warns when the passthrough tools/list would exceed this many tokens. */
  tokenBudget: number;
  /** At most this many fallback suggestions on a failed tool call (0: none). */
  maxFallbacks: number;
  /** true: a log file per run in <data dir>/logs; false: stderr only; a path: append to that file. */
  logFile: boolean | string;
  /** Per-run log files kept: at most the newest `files`, none last written more than `days` days ago (0: no limit of that kind). */
  logRetention: { files: number; days: number };
  /** One log line per request and response (ids, server, tool, duration, status, sizes). */
  logRequests: boolean;
  /** With logRequests: argument values too, secret-named keys redacted. */
  logArguments: boolean;
  search: SearchSettings;
  /** HTTP clients and their scopes (see docs/security.md); empty: no tokens (loopback binds only). */
  clients: ClientSettings[];
  limits: LimitSettings;
  /** Description overrides by server key and original tool name; they win over promotions. */
  descriptions: Record<string, Record<string, string>>;
  optimization: OptimizationSettings;
  /** A tool whose definition changed since it was pinned: flagged (warn), hidden until approved (strict), or not checked (off). */
  pinning: PinningMode;
  /** Serve 2026-07-28 requests next to 2025 sessions (auto) or 2025 sessions only (legacy). */
  inboundEra: 'auto' | 'legacy';
  /** A 2026-07-28 client's bridged call that gets no retry within this long expires: the downstream call is cancelled. */
  inputRequiredTtlMs: number;
}

export type PinningMode = 'warn' | 'strict' | 'off';

// --- Client authentication and limits (issue #14) ---
export interface ClientSettings {
  name: string;
  /** `sha256:<hex>` of the token. */
  tokenHash?: string;
  /** Name of an environment variable holding the token. */
  tokenEnv?: string;
  servers?: string[];
  tools?: string[];
  mode?: 'passthrough' | 'toolset' | 'meta' | 'auto';
  toolset?: string;
  admin?: boolean;
  requestsPerMinute?: number;
  maxSessions?: number;
}

export interface LimitSettings {
  maxInitializeBodyBytes: number;
  maxBodyBytes: number;
  maxJsonDepth: number;
  sessionsPerClient: number;
  concurrentCallsPerSession: number;
  maxResultChars: number;
  maxToolNameLength: number;
  maxQueryLength: number;
  learnedQueriesPerSession: number;
  learningQuorum: number;
  requestsPerMinute: number;
}

/** Description optimization (see docs/optimization.md). */
export interface OptimizationSettings {
  /** Exposes the optimization tools on /gateway/mcp and the `optimize` CLI (overrides and promotions apply regardless). */
  enabled: boolean;
  backends: OptimizationBackendSettings[];
  /** Candidates generated per tool. */
  candidates: number;
  /** Repeats of every (subject, prompt) pair. */
  repeats: number;
  /** Thresholds of the promotion rule; unset ones take the defaults in src/optimize/rule.ts. */
  rule: Partial<{
    minGain: number;
    alpha: number;
    maxCategoryDrop: number;
    categoryBoundLevel: number;
    minNegativeRate: number;
    paraphraseKeep: number;
    beatParaphraseControl: boolean;
    noStealing: boolean;
    holdoutNoCategoryDrop: boolean;
    holdoutOverallAtLeastCanonical: boolean;
  }>;
}

export interface OptimizationBackendSettings {
  name: string;
  type: 'retrieval' | 'openai' | 'anthropic' | 'claude-code' | 'sampling';
  baseUrl?: string;
  model?: string;
  /** NAME of the environment variable holding the API key. */
  apiKeyEnv?: string;
  /** claude-code: the executable (default "claude"). */
  command?: string;
  timeoutMs?: number;
}

/** Tool search (see docs/search.md). */
export interface SearchSettings {
  /** Default mode; unset: hybrid when embeddings are configured, else lexical. */
  mode?: 'lexical' | 'semantic' | 'hybrid';
  /** An OpenAI-compatible /v1/embeddings endpoint; unset: search is lexical only. */
  embeddings?: {
    baseUrl: string;
    model: string;
    /** Name of the environment variable with the API key. */
    apiKeyEnv?: string;
    dimensions?: number;
    batchSize?: number;
    timeoutMs?: number;
  };
  /** Attach a search query to the tool a session then calls (stored, capped, fading). */
  learning: boolean;
  /** Days after which a learned query's weight has halved. */
  learningHalfLifeDays: number;
  /** Let recorded success rates nudge the ranking (never hiding a tool). */
  priors: boolean;
  /** The `llm` mode of recommend_tools: an OpenAI-compatible chat endpoint and/or the client's sampling. */
  llm?: {
    baseUrl?: string;
    model?: string;
    /** Name of the environment variable with the API key. */
    apiKeyEnv?: string;
    /** Use MCP sampling when the client declares it and no endpoint is configured (default true). */
    sampling?: boolean;
    candidates?: number;
    timeoutMs?: number;
    maxAnswerTokens?: number;
    maxPromptTokens?: number;
  };
}

export interface LoadedConfig {
  /** Absolute path of the config file. */
  file: string;
  /** In file order. */
  servers: ServerConfig[];
  settings: SwitchboardSettings;
  /** Entries skipped (an unset variable, an entry that runs Switchboard itself); the message names file, server and cause. */
  warnings: ConfigWarning[];
}

export interface ConfigWarning {
  serverKey: string;
  message: string;
}
