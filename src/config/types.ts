// Owns the shapes the rest of Switchboard sees after config is loaded and validated.

/** One downstream server, normalized from whatever client's .mcp.json dialect it was written in. */
export type ServerConfig =
  | ({
      key: string;
      transport: 'stdio';
      command: string;
      args: string[];
      env: Record<string, string>;
      /** Absolute (a relative cwd in the file is resolved against the file's folder). */
      cwd?: string;
      disabled: boolean;
      description?: string;
    } & ServerResilience)
  | ({
      key: string;
      transport: 'http' | 'sse';
      url: string;
      headers: Record<string, string>;
      disabled: boolean;
      description?: string;
    } & ServerResilience);

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
  requestTimeoutMs: number;
  listChangedDebounceMs: number;
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
  search: SearchSettings;
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
}
