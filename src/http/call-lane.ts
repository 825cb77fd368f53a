// Owns the HTTP face's relay lane for tools/call on one 2025-era session: a POST holding one
// tools/call, whose headers the SDK transport would accept, goes straight to the session's own request
// handler (lane-call.ts) and is answered on Node's own response object. A call answered before its
// stream had to begin (BEGIN_AFTER_MS, nothing sent for it meanwhile) gets one JSON body
// (`application/json`, which the protocol lets a server answer any POST with and every client must
// read); otherwise an event stream, as the SDK transport answers, carries what the session sends tied
// to the call (logs, progress, sampling or elicitation requests) and then its answer. The JSON body
// spares the client an event-stream parser per call: with the SDK's client, calls/s at 32 sessions
// went from 802 to 1,199 (docs/performance.md). Skipped per call: the SDK transport's web streams and
// schema run over the envelope, and the SDK server's dispatch. A client's notifications/cancelled for
// a lane call aborts it and ends its stream; a session that closes ends every lane call's stream.
// A call whose server's result is its answer as it stands is answered as soon as that result is
// read, before the call's bookkeeping (gateway/early-answer.ts).
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { SUPPORTED_PROTOCOL_VERSIONS, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/server';
import type { GatewaySession } from '../gateway/session.js';
import { laneCallOf, laneServes, runLaneCall, type LaneCall } from '../gateway/lane-call.js';
import { isRequestId, type RequestId } from '../gateway/request-id.js';
import { moduleLogger } from '../logging/logger.js';
import { CallCancel } from '../servers/call-cancel.js';

/** How often a waiting stream gets an SSE comment, as the SDK transport's default keep-alive. */
const KEEP_ALIVE_MS = 15_000;
/**
 * A call not answered by then has its stream begun (the client sees its headers, as the SDK transport
 * sends them at once); one answered sooner goes out as one JSON body in one write, headers and answer
 * together.
 */
const BEGIN_AFTER_MS = 20;
const JSON_CONTENT_TYPE = /^application\/json\s*(;|$)/i;

/** One lane call's answer on its POST's response: an event stream once begun, else one JSON body. */
class LaneStream {
  private started = false;
  private keepAlive: NodeJS.Timeout | undefined;
  /** The call's cancel: no AbortController unless code asks for the context's signal (servers/call-cancel.ts). */
  readonly cancel = new CallCancel();

  constructor(
    private readonly response: ServerResponse,
    private readonly sessionId: string,
  ) {
    this.keepAlive = setTimeout(() => this.begin(), BEGIN_AFTER_MS);
    this.keepAlive.unref();
  }

  /** False once the client went away or the stream ended: nothing more can reach it. */
  get open(): boolean {
    return !this.response.writableEnded && !this.response.destroyed;
  }

  /** A message tied to the call (a notification or a request to the client), before its answer. */
  event(message: JSONRPCMessage): void {
    if (!this.open) return;
    this.start();
    this.response.write(frameOf(message));
  }

  /** The call's answer: the last event of a begun stream, or else the whole body, as JSON. */
  answer(message: JSONRPCMessage): void {
    this.stopKeepAlive();
    if (!this.open) return;
    if (this.started) {
      this.response.end(frameOf(message));
      return;
    }
    const body = JSON.stringify(message);
    this.response.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': this.sessionId, 'content-length': Buffer.byteLength(body) });
    this.response.end(body);
  }

  /** Ends the stream without an answer (the call was cancelled, or the session closed). */
  end(): void {
    this.stopKeepAlive();
    if (!this.open) return;
    this.start();
    this.response.end();
  }

  private start(): void {
    if (this.started) return;
    this.started = true;
    this.response.writeHead(200, this.headers());
    this.response.flushHeaders();
  }

  private headers(): Record<string, string> {
    return { 'content-type': 'text/event-stream', 'cache-control': 'no-cache, no-transform', connection: 'keep-alive', 'x-accel-buffering': 'no', 'mcp-session-id': this.sessionId };
  }

  /** The call is taking a while: its stream begins, and gets a keep-alive comment every KEEP_ALIVE_MS. */
  private begin(): void {
    if (!this.open) return;
    if (this.started) this.response.write(': keepalive\n\n');
    else this.start();
    this.keepAlive = setTimeout(() => this.begin(), KEEP_ALIVE_MS);
    this.keepAlive.unref();
  }

  private stopKeepAlive(): void {
    if (this.keepAlive) clearTimeout(this.keepAlive);
    this.keepAlive = undefined;
  }
}

const frameOf = (message: JSONRPCMessage) => `event: message\ndata: ${JSON.stringify(message)}\n\n`;

export class HttpCallLane {
  /** The lane's calls now running, by the client's id. */
  private readonly running = new Map<RequestId, LaneStream>();
  private readonly log = moduleLogger('http');

  constructor(private readonly session: GatewaySession) {}

  /**
   * Follows what the session's transport sends: a message tied to a lane call (the SDK server names
   * the call's id as its related request) goes to that call's stream; the transport knows no such id.
   */
  follow(transport: Transport): void {
    const send = transport.send.bind(transport);
    transport.send = (message, options) => {
      const related = options?.relatedRequestId;
      const stream = related === undefined || this.running.size === 0 ? undefined : this.running.get(related);
      if (!stream) return send(message, options);
      stream.event(message);
      return Promise.resolve();
    };
  }

  /**
   * The tools/call in `body` when the lane takes it: one request (not a batch), headers the SDK
   * transport would accept as they are, and a session the lane serves. Undefined: the SDK's way.
   */
  takes(headers: IncomingHttpHeaders, body: unknown): LaneCall | undefined {
    if (Array.isArray(body) || !laneServes(this.session)) return undefined;
    const call = laneCallOf(body);
    if (!call || this.running.has(call.id)) return undefined;
    const accept = headers.accept;
    if (!accept || !accept.includes('application/json') || !accept.includes('text/event-stream')) return undefined;
    if (!JSON_CONTENT_TYPE.test(headers['content-type'] ?? '')) return undefined;
    const version = headers['mcp-protocol-version'];
    if (version !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(version as string)) return undefined;
    return call;
  }

  /** Runs a call `takes` returned, answering on `response`; `release` frees its id once it is answered. */
  run(call: LaneCall, response: ServerResponse, sessionId: string, request: Request, release: () => void): void {
    const stream = new LaneStream(response, sessionId);
    this.running.set(call.id, stream);
    // Answered the moment the server's result is read where nothing after would change it
    // (gateway/early-answer.ts); the answer that follows the call's bookkeeping then finds the
    // response ended and writes nothing.
    const answerNow = (result: Record<string, unknown>) => {
      if (!stream.cancel.aborted) stream.answer({ jsonrpc: '2.0', id: call.id, result } as JSONRPCMessage);
    };
    runLaneCall(this.session, call, { cancel: stream.cancel, sessionId, http: { req: request }, answer: answerNow })
      .then((answer) => {
        if (answer) stream.answer(answer);
        else stream.end();
      })
      .catch((error: unknown) => {
        // runLaneCall turns the handler's failures into answers: this is a write that failed.
        this.log.debug({ err: error, requestId: call.id }, 'lane answer not written');
        stream.end();
      })
      .finally(() => {
        // A cancelled call's id was freed by the cancel itself, and may name a new request by now.
        if (this.running.get(call.id) !== stream) return;
        this.running.delete(call.id);
        release();
      });
  }

  /** Aborts the lane calls that notifications/cancelled in `body` name (the SDK transport knows none of them). */
  cancelNamed(body: unknown): void {
    if (this.running.size === 0) return;
    for (const message of Array.isArray(body) ? body : [body]) {
      if (typeof message !== 'object' || message === null) continue;
      const { method, id, params } = message as { method?: unknown; id?: unknown; params?: { requestId?: unknown; reason?: unknown } };
      if (method !== 'notifications/cancelled' || id !== undefined) continue;
      const requestId = params?.requestId;
      const stream = isRequestId(requestId) ? this.running.get(requestId) : undefined;
      if (!stream) continue;
      this.running.delete(requestId as RequestId);
      stream.cancel.abort(params?.reason);
      stream.end();
    }
  }

  /** The session closed: every lane call is aborted and its stream ended. */
  close(): void {
    for (const stream of this.running.values()) {
      stream.cancel.abort(new Error('Session closed'));
      stream.end();
    }
    this.running.clear();
  }
}
