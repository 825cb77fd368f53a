// Owns the typed errors the gateway raises about downstream servers. Each carries the server key,
// what happened and what to do next, in the message and in structured `data` for clients.
import { ProtocolError } from '@modelcontextprotocol/server';

/** JSON-RPC error code for "the downstream server is unavailable" (implementation-defined range). */
export const SERVER_UNAVAILABLE = -32001;
/** JSON-RPC error code for "the downstream server did not answer in time". */
export const SERVER_TIMEOUT = -32002;

export function serverUnavailable(serverKey: string, reason: string, hint?: string): ProtocolError {
  const next = hint ?? `Check the server's configuration and logs, then retry; run "switchboard servers" to see its state.`;
  return new ProtocolError(SERVER_UNAVAILABLE, `Server "${serverKey}" is unavailable: ${reason}. ${next}`, {
    server: serverKey,
    reason,
    hint: next,
  });
}

export function serverTimeout(serverKey: string, method: string, timeoutMs: number): ProtocolError {
  const hint = 'The server may be overloaded or hung; retry later or raise requestTimeoutMs in the switchboard settings.';
  return new ProtocolError(SERVER_TIMEOUT, `Server "${serverKey}" did not answer ${method} within ${timeoutMs} ms. ${hint}`, {
    server: serverKey,
    method,
    timeoutMs,
    hint,
  });
}
