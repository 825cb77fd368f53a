// Owns what a connection is built with and what a request to it may carry. Generic over the
// connection type (C) so this module needs no import of connection.ts, which names the concrete types.
import type { CredentialStore } from '../auth/credential-store.js';
import type { SendOptions } from './request-sender.js';
import type { ResilienceOptions } from './resilience-options.js';

/** Answers a request the server sends to its client (sampling, elicitation, roots). */
export type ReverseRequestHandlerFor<C> = (
  connection: C,
  request: { method: string; params?: Record<string, unknown> },
  signal: AbortSignal,
) => Promise<unknown>;

export interface ConnectionOptionsFor<C> {
  /** A request with no answer and no progress for this long is cancelled and fails. */
  requestTimeoutMs: number;
  resilience?: ResilienceOptions;
  onReverseRequest?: ReverseRequestHandlerFor<C>;
  /** Stored OAuth logins for remote servers (src/auth); absent: remote servers get only their configured headers. */
  credentials?: CredentialStore;
}

export interface ForwardOptions extends SendOptions {
  /** Without progress: the whole request's bound; with progress: how long it may go without an update. */
  timeoutMs?: number;
}
