// Owns the stdio face's relay lane for tools/call: once a 2025-era session is initialized, a
// tools/call line that was parsed once goes straight to the session's own request handler (every
// check, name resolution, recording and fallback of a forwarded call stays where it is), and its
// answer is written back as the SDK server would write it. Skipped per call: a second schema run
// over the envelope and the SDK server's dispatch (its codec, context building, promise chain).
// The request context is the SDK's shape, built here: the client's cancel aborts its signal, and
// notifications and requests to the client made on its behalf go through the SDK server with the
// request's id, as they would from the SDK's own context. Anything else (other methods, `_meta`
// other than a progress token, a session not yet initialized, a 2026-07-28 session) takes the SDK path.
// Each call gets its AbortController up front, not lazily: every forwarded call reads its signal
// (forward.ts hands it to the connection, whose sender cancels downstream on abort), so a lazy one
// would be created on every call anyway.
import type { JSONRPCMessage, ServerContext } from '@modelcontextprotocol/server';
import { moduleLogger } from '../logging/logger.js';
import type { GatewaySession } from './session.js';
import { isRequestId } from './request-id.js';

type Id = string | number;
type Params = Record<string, unknown>;

interface Line {
  jsonrpc?: unknown;
  id?: unknown;
  method?: unknown;
  params?: unknown;
}

/** `_meta` that is a progress token alone (what clients send with a call); anything else takes the SDK path. */
function onlyProgressToken(meta: unknown): boolean {
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) return false;
  const keys = Object.keys(meta);
  if (keys.length !== 1 || keys[0] !== 'progressToken') return false;
  return isRequestId((meta as { progressToken?: unknown }).progressToken); // a progress token has an id's shape
}

/** The 2025-era wire reports -32002 (resource not found in older drafts) as -32602, as the SDK's codec does. */
const encodeErrorCode = (code: number) => (code === -32002 ? -32602 : code);
const NO_REQUEST_STATE = () => undefined;

export class StdioFastCalls {
  /** The session the lane serves: the connection's 2025-era session once it exists. */
  private session: GatewaySession | undefined;
  /** tools/call requests of the lane now running, by the client's id. */
  private readonly running = new Map<Id, AbortController>();
  private readonly log = moduleLogger('stdio');

  constructor(private readonly write: (message: JSONRPCMessage) => Promise<void>) {}

  /** The connection's 2025-era session (the lane takes its calls once it is initialized). */
  serve(session: GatewaySession): void {
    if (session.era === 'legacy') this.session = session;
  }

  /**
   * Takes one parsed line when it is the lane's: a tools/call of an initialized 2025-era session, or
   * a cancel of one of the lane's calls. False: the line goes the usual way.
   */
  take(value: unknown): boolean {
    if (typeof value !== 'object' || value === null) return false;
    const line = value as Line;
    if (line.method === 'notifications/cancelled') return this.cancel(line.params);
    if (line.method !== 'tools/call' || line.jsonrpc !== '2.0') return false;
    const id = line.id;
    if (!isRequestId(id)) return false;
    const params = line.params;
    if (typeof params !== 'object' || params === null || Array.isArray(params)) return false;
    const meta = (params as Params)._meta;
    if (meta !== undefined && !onlyProgressToken(meta)) return false;
    const session = this.session;
    if (!session || session.closed || this.running.has(id) || !session.server.fallbackRequestHandler || !session.clientCapabilities) return false;
    this.run(session, id, params as Params);
    return true;
  }

  private run(session: GatewaySession, id: Id, params: Params): void {
    const controller = new AbortController();
    this.running.set(id, controller);
    const request = { jsonrpc: '2.0' as const, id, method: 'tools/call', params };
    const server = session.server;
    const ctx = {
      sessionId: undefined,
      mcpReq: {
        id,
        method: 'tools/call',
        _meta: params._meta,
        requestState: NO_REQUEST_STATE,
        signal: controller.signal,
        notify: (notification: { method: string; params?: Params }) => server.notification(notification as never, { relatedRequestId: id }),
        send: (r: { method: string; params?: Params }, schema: unknown, options?: Params) => server.request(r as never, schema as never, { ...options, relatedRequestId: id }),
      },
      http: undefined,
    } as unknown as ServerContext;
    server.fallbackRequestHandler!(request, ctx).then(
      (result) => {
        if (controller.signal.aborted) return;
        return this.write({ jsonrpc: '2.0', id, result } as JSONRPCMessage);
      },
      (error: { code?: unknown; message?: string; data?: unknown }) => {
        if (controller.signal.aborted) return;
        const code = Number.isSafeInteger(error.code) ? (error.code as number) : -32603;
        const answer = { code: encodeErrorCode(code), message: error.message ?? 'Internal error', ...(error.data !== undefined && { data: error.data }) };
        return this.write({ jsonrpc: '2.0', id, error: answer } as JSONRPCMessage);
      },
    ).catch((error: Error) => this.log.debug({ id, err: error.message }, 'the answer to a call could not be written (the client has gone)')).finally(() => {
      if (this.running.get(id) === controller) this.running.delete(id);
    });
  }

  /** A client's notifications/cancelled for a call of the lane aborts it (no answer follows, as in MCP). */
  private cancel(params: unknown): boolean {
    const requestId = (params as { requestId?: unknown } | undefined)?.requestId;
    const controller = typeof requestId === 'string' || typeof requestId === 'number' ? this.running.get(requestId) : undefined;
    if (!controller) return false;
    this.running.delete(requestId as Id);
    controller.abort((params as { reason?: unknown }).reason);
    return true;
  }

  /** The connection closed: every call of the lane is aborted. */
  close(): void {
    for (const controller of this.running.values()) controller.abort(new Error('Connection closed'));
    this.running.clear();
  }
}
