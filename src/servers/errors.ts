// Owns the typed errors the gateway raises about downstream servers. Each carries the server key,
// what happened and what to do next, in the message and in structured `data` for clients.
// The client package has its own error classes (not the server package's): errors coming back from a
// downstream server are checked against those.
import { ProtocolError as ClientProtocolError, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import { ProtocolError } from '@modelcontextprotocol/server';
import { loginHint } from '../auth/errors.js';

// Codes from the JSON-RPC implementation-defined range that MCP leaves free: -32001 is the
// Streamable HTTP "session not found", and the SDK rewrites -32002 (legacy "resource not found").
/** JSON-RPC error code for "the downstream server is unavailable". */
export const SERVER_UNAVAILABLE = -32010;
/** JSON-RPC error code for "the downstream server did not answer in time". */
export const SERVER_TIMEOUT = -32011;

/** JSON-RPC error code for "the downstream server needs a login" (`switchboard login <server>`). */
export const SERVER_LOGIN_REQUIRED = -32012;

export interface UnavailableDetails {
  /** When the server went down (ISO time in data). */
  downSince?: Date;
  /** When the gateway will try again by itself. */
  retryAfterMs?: number;
  state?: string;
  hint?: string;
}

export function serverUnavailable(serverKey: string, reason: string, details: UnavailableDetails | string = {}): ProtocolError {
  const d: UnavailableDetails = typeof details === 'string' ? { hint: details } : details;
  const retry = d.retryAfterMs !== undefined ? `Retry after ${Math.ceil(d.retryAfterMs / 1000)} s.` : undefined;
  const next = d.hint ?? retry ?? `Check the server's configuration and logs, then retry; run "switchboard servers" to see its state.`;
  const since = d.downSince ? ` (down since ${d.downSince.toISOString()})` : '';
  const message = `Server "${serverKey}" is unavailable${since}: ${reason}. ${next}${d.hint && retry ? ` ${retry}` : ''}`;
  return new ProtocolError(SERVER_UNAVAILABLE, message, {
    server: serverKey,
    reason,
    ...(d.state && { state: d.state }),
    ...(d.downSince && { downSince: d.downSince.toISOString() }),
    ...(d.retryAfterMs !== undefined && { retryAfterMs: Math.max(0, Math.round(d.retryAfterMs)) }),
    hint: next,
  });
}

export function serverTimeout(serverKey: string, method: string, timeoutMs: number): ProtocolError {
  const hint = 'The server may be overloaded or hung; retry later or raise requestTimeoutMs for it.';
  return new ProtocolError(SERVER_TIMEOUT, `Server "${serverKey}" did not answer ${method} within ${timeoutMs} ms; the request was cancelled. ${hint}`, {
    server: serverKey,
    method,
    timeoutMs,
    hint,
  });
}

/**
 * The server refused us for good (no stored login, or the refresh failed): a person must run
 * `switchboard login`. Not a server fault: the circuit breaker does not count it, and nothing retries it.
 */
export function serverNeedsLogin(serverKey: string): ProtocolError {
  const hint = `run switchboard login ${serverKey}`;
  return new ProtocolError(SERVER_LOGIN_REQUIRED, loginHint(serverKey), { server: serverKey, reason: 'login required', hint });
}

/** Failures that say the server (not the request) is in trouble: they count toward its circuit breaker. */
export function isServerFault(error: unknown): boolean {
  return error instanceof ProtocolError && (error.code === SERVER_UNAVAILABLE || error.code === SERVER_TIMEOUT);
}

/**
 * What a failed forwarded request becomes: the server's own error as is, an abort as is, and
 * everything the SDK client raises (timeout, closed connection, transport failure) as SERVER_TIMEOUT
 * or SERVER_UNAVAILABLE naming the server.
 */
/**
 * The client gave up on the request (its signal aborted): an AbortError, which is never the server's fault (the
 * circuit breaker does not count it) and which the SDK does not answer (the client no longer waits).
 */
export function requestCancelled(serverKey: string, method: string): Error {
  const error = new Error(`${method} to server "${serverKey}" was cancelled by the client`);
  error.name = 'AbortError';
  return error;
}

export function fromClientError(serverKey: string, error: unknown, method: string, timeoutMs: number, down: { lastError?: string; downSince?: Date }): unknown {
  if (error instanceof ClientProtocolError) return error;
  if (error instanceof SdkError) {
    if (error.code === SdkErrorCode.RequestTimeout) return serverTimeout(serverKey, method, timeoutMs);
    if (error.code === SdkErrorCode.ConnectionClosed || error.code === SdkErrorCode.NotConnected) {
      return serverUnavailable(serverKey, down.lastError ?? 'the connection closed during the request', { downSince: down.downSince });
    }
  }
  if (error instanceof Error && error.name === 'AbortError') return error;
  return serverUnavailable(serverKey, (error as Error)?.message ?? String(error));
}
