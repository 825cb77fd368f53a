// Owns the shapes the rest of Switchboard sees after config is loaded and validated.

/** One downstream server, normalized from whatever client's .mcp.json dialect it was written in. */
export type ServerConfig =
  | {
      key: string;
      transport: 'stdio';
      command: string;
      args: string[];
      env: Record<string, string>;
      /** Absolute (a relative cwd in the file is resolved against the file's folder). */
      cwd?: string;
      disabled: boolean;
      description?: string;
    }
  | {
      key: string;
      transport: 'http' | 'sse';
      url: string;
      headers: Record<string, string>;
      disabled: boolean;
      description?: string;
    };

export type StdioServerConfig = Extract<ServerConfig, { transport: 'stdio' }>;
export type RemoteServerConfig = Extract<ServerConfig, { transport: 'http' | 'sse' }>;

export interface HttpSettings {
  host: string;
  port: number;
  allowedOrigins: string[];
  allowedHosts: string[];
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
}

export interface LoadedConfig {
  /** Absolute path of the config file. */
  file: string;
  /** In file order. */
  servers: ServerConfig[];
  settings: SwitchboardSettings;
}
