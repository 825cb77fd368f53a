// Owns the HTTP face's answer to a POST that carries no session id and no initialize: a JSON-RPC
// error reply for the request's own id, at once, as a 2025-era server gives it. A 2026-07-28 client's
// `server/discover` probe gets -32601 (method not found) with HTTP 400, which clients read as "this
// server speaks the 2025 era" and fall back to initialize immediately (docs/protocol.md).
import { DISCOVER_METHOD, discoverRefusal } from '../gateway/era.js';
import { answerableId } from '../gateway/request-id.js';

type Id = string | number | null;

/** The reply to a session-less POST whose messages hold no initialize request. */
export function preSessionReply(body: unknown): Response {
  const first = (Array.isArray(body) ? body : [body]).find(isRequest);
  const id: Id = first ? first.id : null;
  const error = first?.method === DISCOVER_METHOD
    ? discoverRefusal()
    : { code: -32000, message: 'Bad Request: no valid session id; send initialize first' };
  return new Response(JSON.stringify({ jsonrpc: '2.0', id, error }), { status: 400, headers: { 'content-type': 'application/json' } });
}

function isRequest(message: unknown): message is { id: string | number; method: string } {
  if (typeof message !== 'object' || message === null) return false;
  const { id, method } = message as { id?: unknown; method?: unknown };
  return typeof method === 'string' && answerableId(id) !== null;
}
