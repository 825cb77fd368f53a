// Owns the stdio face's relay lane for tools/call: once a 2025-era session is initialized, a
// tools/call line that was parsed once goes straight to the session's own request handler (every
// check, name resolution, recording and fallback of a forwarded call stays where it is), and its
// answer is written back as the SDK server would write it. Skipped per call: a second schema run
// over the envelope and the SDK server's dispatch (its codec, context building, promise chain).
// The request context and the answer are the SDK's shape (lane-call.ts, shared with the HTTP face's
// lane). Anything else (other methods, `_meta` other than a progress token, a session not yet
// initialized, a 2026-07-28 session) takes the SDK path.
// A call whose server's result is its answer as it stands is answered the moment that result is
// read (early-answer.ts): the write comes before the call's promise chain and bookkeeping, which
// then run while the client reads its answer.
// Each call's cancel is a CallCancel (servers/call-cancel.ts): the forwarding path listens to it
// as it would to an AbortSignal, and no AbortController is made unless code asks for the context's
// signal (a failed call's classification, the SDK's request path).
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { moduleLogger } from '../logging/logger.js';
import type { GatewaySession } from './session.js';
import { isRequestId, type RequestId as Id } from './request-id.js';
import { laneCallOf, laneServes, runLaneCall, type LaneCall } from './lane-call.js';
import { CallCancel } from '../servers/call-cancel.js';

export class StdioFastCalls {
  /** The session the lane serves: the connection's 2025-era session once it exists. */
  private session: GatewaySession | undefined;
  /** tools/call requests of the lane now running, by the client's id. */
  private readonly running = new Map<Id, CallCancel>();
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
    if ((value as { method?: unknown }).method === 'notifications/cancelled') return this.cancel((value as { params?: unknown }).params);
    const call = laneCallOf(value);
    if (!call || !laneServes(this.session) || this.running.has(call.id)) return false;
    this.run(this.session, call);
    return true;
  }

  private run(session: GatewaySession, call: LaneCall): void {
    const cancel = new CallCancel();
    this.running.set(call.id, cancel);
    // One reaction for both outcomes (a .then/.catch/.finally chain is three promise jobs per call).
    // The id is free once the answer is handed to the transport: a cancel after that finds nothing to
    // abort (the SDK's path ignores it too), and an id reused after its answer is a new call.
    const done = () => {
      if (this.running.get(call.id) === cancel) this.running.delete(call.id);
    };
    const unwritten = (error: Error) => this.log.debug({ id: call.id, err: error.message }, 'the answer to a call could not be written (the client has gone)');
    let answered = false;
    const answerNow = (result: Record<string, unknown>) => {
      if (answered || cancel.aborted) return;
      answered = true;
      done();
      this.write({ jsonrpc: '2.0', id: call.id, result } as JSONRPCMessage).catch(unwritten);
    };
    runLaneCall(session, call, { cancel, answer: answerNow }).then(
      (answer) => {
        done();
        if (answer && !answered) this.write(answer).catch(unwritten);
      },
      (error: Error) => {
        done();
        unwritten(error);
      },
    );
  }

  /** A client's notifications/cancelled for a call of the lane aborts it (no answer follows, as in MCP). */
  private cancel(params: unknown): boolean {
    const requestId = (params as { requestId?: unknown } | undefined)?.requestId;
    const cancel = isRequestId(requestId) ? this.running.get(requestId) : undefined;
    if (!cancel) return false;
    this.running.delete(requestId as Id);
    cancel.abort((params as { reason?: unknown }).reason);
    return true;
  }

  /** The connection closed: every call of the lane is aborted. */
  close(): void {
    for (const cancel of this.running.values()) cancel.abort(new Error('Connection closed'));
    this.running.clear();
  }
}
