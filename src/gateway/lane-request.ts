// Owns the request context (`ctx.mcpReq`) a relay lane builds for a tools/call: the SDK server's
// shape (id, method, _meta, requestState, signal, notify, send) as one class instance, plus what only
// the lane carries: its cancel (an AbortSignal, or a CallCancel that makes one only when the context's
// signal is read) and its early answer (early-answer.ts), in private fields. A copy of the object (a
// detached context) is a plain object and carries neither, nor `signal`, which is the class's getter:
// a copy sets its own (as bridged-forward.ts does). A class, not an object literal with a getter and
// two defineProperty calls: those cost 1.2–1.7 µs a call in a micro-benchmark against 0.1 µs for an
// instance (docs/performance.md, twenty-first pass); end to end the change measured nothing.
import type { ServerContext } from '@modelcontextprotocol/server';
import type { RequestId } from './request-id.js';
import { abortSignalOf, type CallCancel, type CancelSignal } from '../servers/call-cancel.js';

type Params = Record<string, unknown>;
type Result = Record<string, unknown>;
type Notify = ServerContext['mcpReq']['notify'];
type Send = ServerContext['mcpReq']['send'];

const NO_REQUEST_STATE = () => undefined;

export class LaneRequest {
  readonly method = 'tools/call';
  readonly requestState = NO_REQUEST_STATE;
  readonly #cancel: AbortSignal | CallCancel;
  readonly #answer: ((result: Result) => void) | undefined;

  constructor(
    readonly id: RequestId,
    readonly _meta: Params | undefined,
    cancel: AbortSignal | CallCancel,
    answer: ((result: Result) => void) | undefined,
    /** Notifications related to the call (progress, logs), through the SDK server tied to its id. */
    readonly notify: Notify,
    /** The server's own requests related to the call (sampling, elicitation, roots). */
    readonly send: Send,
  ) {
    this.#cancel = cancel;
    this.#answer = answer;
  }

  /** The call's AbortSignal: made on first read when the cancel is a CallCancel (the forwarding path reads cancelOf instead). */
  get signal(): AbortSignal {
    return abortSignalOf(this.#cancel);
  }

  /** The lane's cancel when `mcpReq` is a lane's request context, else undefined. */
  static cancelOf(mcpReq: unknown): CancelSignal | undefined {
    return mcpReq instanceof LaneRequest ? mcpReq.#cancel : undefined;
  }

  /** The lane's early answer when `mcpReq` is a lane's request context that has one, else undefined. */
  static answerOf(mcpReq: unknown): ((result: Result) => void) | undefined {
    return mcpReq instanceof LaneRequest ? mcpReq.#answer : undefined;
  }
}
