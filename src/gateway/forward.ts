// Owns forwarding one request of a client session to a server: the client's progress token is
// mapped per hop (and every progress update written before the result), cancellation follows the
// client's cancel (cancelOf: the lane's own or the SDK's signal), errors keep the server's code,
// message and data, and each finished call is tracked for reverse-request routing, recorded in the
// metrics and logged once at debug level.
import type { JSONRPCRequest, ServerContext } from '@modelcontextprotocol/server';
import type { Connection } from '../servers/connection.js';
import type { CallOutcome } from '../store/index.js';
import { approximateSize, errorClassOf, firstText, outcomeOf } from './call-outcome.js';
import type { ForwardingServices } from './ports.js';
import { correlationOf } from '../logging/correlation.js';
import { cancelOf } from './request-cancel.js';
import { requestLog, type RequestFields } from '../logging/request-log.js';

type Params = Record<string, unknown>;
type Result = Record<string, unknown>;

/** What forwarding needs from the session it runs for. */
export interface ForwardingSession {
  readonly id: string;
  /** Where the call is recorded, the log, the bridge: built once by the gateway, shared by its sessions. */
  readonly services: ForwardingServices;
  /** Requests of the session now running on each connection (newest last). */
  readonly inflight: Map<Connection, ServerContext[]>;
}

/**
 * Sends one request to a server and returns its result untouched. The client's progress token is
 * replaced by the SDK's own downstream and mapped back on the way up; cancellation follows the
 * client's cancel; errors keep the server's code, message and data. `onResult` gets the server's
 * result as soon as it arrives, before this call's bookkeeping (a request without progress on the
 * relay lane; see early-answer.ts).
 */
export async function forwardRequest(session: ForwardingSession, connection: Connection, request: JSONRPCRequest, params: Params, ctx: ServerContext, label?: string, record = true, onResult?: (result: Result) => void): Promise<Result> {
  const meta = params._meta as Params | undefined;
  const progressToken = meta?.progressToken;
  let forwarded = params;
  if (meta && 'progressToken' in meta) {
    const { progressToken: _dropped, ...rest } = meta;
    forwarded = { ...params, _meta: rest };
    if (Object.keys(rest).length === 0) delete forwarded._meta;
  }
  // Progress notifications are chained so each is written before the next, and all before the result.
  let progressSent: Promise<void> = Promise.resolve();
  const onprogress =
    progressToken === undefined
      ? undefined
      : (progress: Params) => {
          const notification = { method: 'notifications/progress', params: { ...progress, progressToken } };
          progressSent = progressSent.then(() => ctx.mcpReq.notify(notification)).catch(() => undefined);
          if (requestLog) requestLog.progress(requestFields(session, connection, request, ctx, label), progress);
        };
  const cancel = cancelOf(ctx);
  const startedAt = Date.now();
  const started = performance.now();
  const running = session.inflight.get(connection) ?? [];
  running.push(ctx);
  session.inflight.set(connection, running);
  let outcome: CallOutcome = 'ok';
  let failure: unknown;
  let result: Result | undefined;
  let answeredAt: number | undefined;
  try {
    result = await connection.request(request.method, Object.keys(forwarded).length ? forwarded : undefined, {
      signal: cancel,
      onprogress,
      caller: session.id,
      onResult,
      // No timeoutMs: the connection applies the server's own requestTimeoutMs, else the gateway's.
    });
    if (result.isError === true) outcome = 'tool_error';
    answeredAt = performance.now();
    if (onprogress) await progressSent;
    return result;
  } catch (error) {
    failure = error;
    outcome = cancel.aborted ? 'cancelled' : outcomeOf(error);
    throw error;
  } finally {
    running.splice(running.indexOf(ctx), 1);
    if (running.length === 0) session.inflight.delete(connection);
    const durationMs = Math.round(((answeredAt ?? performance.now()) - started) * 100) / 100;
    // Names the server does not list (per-server endpoints) are not recorded: unbounded input.
    if (record && request.method === 'tools/call') {
      session.services.calls.recordCall({
        server: connection.key,
        identity: connection.identity,
        tool: params.name as string,
        session: session.id,
        correlationId: correlationOf(ctx),
        startedAt,
        durationMs,
        outcome,
        ...(failure !== undefined && { errorClass: errorClassOf(failure), errorMessage: (failure as Error).message }),
        ...(outcome === 'tool_error' && { errorClass: 'isError', errorMessage: firstText(result) }),
        ...(result && { resultBytes: approximateSize(result) }),
      });
    }
    if (requestLog) {
      const error = failure === undefined ? undefined : (failure as Error).message;
      requestLog.request(requestFields(session, connection, request, ctx, label), params.arguments, { durationMs, status: outcome, result, ...(error !== undefined && { error }) });
    }
    // Per-call lines are debug: the metrics record every call, and at info this line was the biggest
    // single cost of a forwarded call (a synchronous write to stderr, see docs/decisions/0004-hot-path.md).
    const log = session.services.log;
    if (log.isLevelEnabled('debug')) {
      log.debug(
        { requestId: ctx.mcpReq.id, session: session.id, method: request.method, server: connection.key, ...(label && { name: label }), durationMs, status: outcome },
        'forwarded',
      );
    }
  }
}

/** The fields that name one forwarded request in the request log (built only when it is on). */
function requestFields(session: ForwardingSession, connection: Connection, request: JSONRPCRequest, ctx: ServerContext, label: string | undefined): RequestFields {
  return { requestId: ctx.mcpReq.id, correlationId: correlationOf(ctx), session: session.id, method: request.method, server: connection.key, ...((label ?? request.params?.name) !== undefined && { tool: String(label ?? request.params?.name) }) };
}
