// Owns the shape of what `switchboard servers` and the admin API report about one connection.
import type { Implementation } from '@modelcontextprotocol/client';

export type ConnectionState = 'configured' | 'connecting' | 'connected' | 'degraded' | 'failed' | 'circuit-open' | 'stopped';

export interface ConnectionStatus {
  state: ConnectionState;
  /** The client capability profile this connection mirrors ('{}' for none). */
  profile: string;
  pid: number | null;
  connectedAt: string | null;
  lastSuccessAt: string | null;
  downSince: string | null;
  nextRetryAt: string | null;
  restarts: number;
  lastError: string | null;
  /** A remote server that refused us until someone runs `switchboard login <key>`. */
  needsLogin: boolean;
  serverInfo: Implementation | null;
  /** The protocol era the server is spoken to once connected: legacy (2025) or modern (2026-07-28). */
  era: 'legacy' | 'modern' | null;
}
