// Owns what both faces' relay lanes share for a tools/call: which calls a lane may take (a request
// whose `_meta` is at most a progress token), the request context the SDK server would build for it
// (lane-request.ts: the client's cancel aborts its signal; notifications and requests to the client
// made on its behalf go through the SDK server tied to the request's id), running it on the
// session's own request handler, and the answer as the SDK server writes it (a result, or the error
// with its code and data).
import type { JSONRPCMessage, ServerContext } from '@modelcontextprotocol/server';
import type { GatewaySession } from './session.js';
import { isRequestId, type RequestId } from './request-id.js';
import { LaneRequest } from './lane-request.js';
import type { CallCancel } from '../servers/call-cancel.js';

type Params = Record<string, unknown>;

interface Message {
  jsonrpc?: unknown;
  id?: unknown;
  method?: unknown;
  params?: unknown;
}

/** A tools/call a lane may take: its id and params, from a parsed message. */
export interface LaneCall {
  id: RequestId;
  params: Params;
}

/** `_meta` that is a progress token alone (what clients send with a call); anything else takes the SDK path. */
function onlyProgressToken(meta: unknown): boolean {
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) return false;
  const keys = Object.keys(meta);
  if (keys.length !== 1 || keys[0] !== 'progressToken') return false;
  return isRequestId((meta as { progressToken?: unknown }).progressToken); // a progress token has an id's shape
}

/** The tools/call in `value` a lane may take, or undefined (anything else goes the SDK's way). */
export function laneCallOf(value: unknown): LaneCall | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const message = value as Message;
  if (message.method !== 'tools/call' || message.jsonrpc !== '2.0') return undefined;
  const { id, params } = message;
  if (!isRequestId(id)) return undefined;
  if (typeof params !== 'object' || params === null || Array.isArray(params)) return undefined;
  const meta = (params as Params)._meta;
  if (meta !== undefined && !onlyProgressToken(meta)) return undefined;
  return { id, params: params as Params };
}

/** A 2025-era session a lane may serve: initialized, open, with the SDK server's handler in place. */
export function laneServes(session: GatewaySession | undefined): session is GatewaySession {
  return session !== undefined && session.era === 'legacy' && !session.closed && session.clientCapabilities !== undefined && session.server.fallbackRequestHandler !== undefined;
}

/** The 2025-era wire reports -32002 (resource not found in older drafts) as -32602, as the SDK's codec does. */
const encodeErrorCode = (code: number) => (code === -32002 ? -32602 : code);

/**
 * Where a lane call runs: its cancel (an AbortSignal, or a CallCancel that makes one only when
 * asked), and what the SDK would put in the context's session id and `http`.
 */
export interface LaneCallSite {
  cancel: AbortSignal | CallCancel;
  /** Answers the call at once with the server's result, where nothing after would change it (early-answer.ts). */
  answer?: (result: Params) => void;
  sessionId?: string;
  http?: { req: Request };
}

/** A standard schema (zod's among them), as the SDK tells a result schema from options. */
const isSchema = (value: unknown) => (typeof value === 'object' || typeof value === 'function') && value !== null && '~standard' in value;

/**
 * `ctx.mcpReq.send` for a lane call: the server's own request, related to the call, with both of the
 * SDK's shapes: `(request, schema, options?)` and `(request, options?)` for spec methods.
 */
export function relatedSend(server: Pick<GatewaySession['server'], 'request'>, id: RequestId) {
  return (r: { method: string; params?: Params }, schemaOrOptions?: unknown, options?: Params) =>
    isSchema(schemaOrOptions)
      ? server.request(r as never, schemaOrOptions as never, { ...options, relatedRequestId: id })
      : server.request(r as never, { ...(schemaOrOptions as Params | undefined), relatedRequestId: id } as never);
}

/**
 * Runs `call` on the session's own request handler. Resolves to the answer to write (a result or an
 * error response for the call's id), or undefined when the call was cancelled (MCP sends no answer then).
 */
export async function runLaneCall(session: GatewaySession, call: LaneCall, site: LaneCallSite): Promise<JSONRPCMessage | undefined> {
  const { id, params } = call;
  const server = session.server;
  const cancel = site.cancel;
  const notify: ServerContext['mcpReq']['notify'] = (notification) => server.notification(notification as never, { relatedRequestId: id });
  // The SDK types `send` with overloads (a schema or not); relatedSend takes both shapes.
  const send = relatedSend(server, id) as unknown as ServerContext['mcpReq']['send'];
  const mcpReq = new LaneRequest(id, params._meta as Params | undefined, cancel, site.answer, notify, send);
  const ctx = { sessionId: site.sessionId, mcpReq, http: site.http } as unknown as ServerContext;
  try {
    const result = await server.fallbackRequestHandler!({ jsonrpc: '2.0', id, method: 'tools/call', params }, ctx);
    if (cancel.aborted) return undefined;
    return { jsonrpc: '2.0', id, result } as JSONRPCMessage;
  } catch (failure) {
    if (cancel.aborted) return undefined;
    const error = failure as { code?: unknown; message?: string; data?: unknown };
    const code = Number.isSafeInteger(error.code) ? (error.code as number) : -32603;
    const answer = { code: encodeErrorCode(code), message: error.message ?? 'Internal error', ...(error.data !== undefined && { data: error.data }) };
    return { jsonrpc: '2.0', id, error: answer } as JSONRPCMessage;
  }
}
