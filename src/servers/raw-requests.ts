// Owns the relay lane of a connection to a 2025-era server: a request the gateway only relays goes
// onto the transport as it is, with an id of ours, and its answer is taken off the wire before the
// SDK's protocol layer sees it. That skips, per call, what the SDK client would do on top of what
// the wire needs (a promise chain through its codec, a result schema run, a timer and an abort
// listener of its own). What the SDK does that still matters is done here the same way: the
// caller's abort and the timeout send notifications/cancelled downstream, a 2025-era
// `resultType` is dropped from a result, and an error answer becomes the SDK's ProtocolError.
// A request may also hand its result over the moment it arrives (onResult), so that whoever waits
// for it can answer before the request's promise chain and bookkeeping run; never ahead of another
// message of the same server read in the same turn, which the SDK forwards a few promise jobs later.
import { ProtocolError, SdkError, SdkErrorCode, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/client';
import type { CancelSignal } from './call-cancel.js';

type Params = Record<string, unknown>;

/**
 * Ids of the relay lane start at 2^40, far above the SDK's own counter (from 0, one per request of
 * the connection), so the two never meet on one wire; numbers, as servers in the wild expect.
 */
const FIRST_ID = 2 ** 40;
let counter = FIRST_ID;

/** Whether an id is one of the lane's (an answer with it is the lane's to take). */
export function isLaneId(id: unknown): id is number {
  return typeof id === 'number' && id >= FIRST_ID;
}

interface Pending {
  onResult: ((result: Params) => void) | undefined;
  resolve(result: Params): void;
  reject(error: unknown): void;
}

interface Reply {
  id?: unknown;
  method?: unknown;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

export class RawRequests {
  private readonly pending = new Map<number, Pending>();
  /** The transport the lane writes to (the latest connected one). */
  private transport: Transport | undefined;
  /** A message other than a lane answer was delivered in this turn (cleared by the next microtask). */
  private deliveredThisTurn = false;
  private readonly endTurn = () => {
    this.deliveredThisTurn = false;
  };

  /** Wraps a connected transport's message handler: answers to the lane's ids stop here. */
  attach(transport: Transport): void {
    this.transport = transport;
    const deliver = transport.onmessage;
    transport.onmessage = (message, extra) => {
      const reply = message as Reply;
      if (isLaneId(reply.id) && reply.method === undefined) {
        const waiting = this.pending.get(reply.id);
        if (waiting) {
          this.pending.delete(reply.id);
          if (reply.error) waiting.reject(ProtocolError.fromError(reply.error.code, reply.error.message, reply.error.data));
          else {
            const result = withoutResultType(reply.result as Params);
            if (waiting.onResult && !this.deliveredThisTurn) waiting.onResult(result);
            waiting.resolve(result);
          }
          return;
        }
      }
      if (!this.deliveredThisTurn) {
        this.deliveredThisTurn = true;
        queueMicrotask(this.endTurn);
      }
      deliver?.call(transport, message, extra);
    };
    const closed = transport.onclose;
    transport.onclose = () => {
      // As the SDK does: the close is handled first, then what was waiting fails.
      try {
        closed?.call(transport);
      } finally {
        if (this.transport === transport) this.failAll(new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed'));
      }
    };
  }

  /** Whether the lane can carry a request on this transport now. */
  usable(transport: Transport | undefined): boolean {
    return transport !== undefined && transport === this.transport;
  }

  /**
   * Sends one request and resolves with the server's result. The signal and the timeout reject with
   * an SdkError RequestTimeout (as the SDK does) after telling the server the request is cancelled.
   * `onResult` gets the result first, synchronously as it is read, unless another message of the
   * server was read in the same turn (then only the promise has it, in order behind that message).
   */
  send(method: string, params: Params | undefined, signal: CancelSignal | undefined, timeout: number, onResult?: (result: Params) => void): Promise<Params> {
    if (signal?.aborted) return Promise.reject(new SdkError(SdkErrorCode.RequestTimeout, String(signal.reason)));
    const transport = this.transport!;
    const id = ++counter;
    // Written first, so the server starts on the request while its slot, timer and cancel listener
    // are set up. That relies on every transport delivering what it reads (onmessage, onclose) in a
    // later turn, never inside send() (true of the SDK's stdio, Streamable HTTP and SSE transports and
    // of adopted-transport.ts); a failed write is seen a promise job later.
    const written = transport.send((params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params }) as JSONRPCMessage);
    return new Promise<Params>((resolve, reject) => {
      const cancel = (reason: unknown) => {
        if (!this.pending.delete(id)) return;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        const cancelled = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: String(reason) } } as JSONRPCMessage;
        transport.send(cancelled).catch(() => undefined);
        reject(reason instanceof SdkError ? reason : new SdkError(SdkErrorCode.RequestTimeout, String(reason)));
      };
      const onAbort = () => cancel(signal!.reason);
      const timer = setTimeout(() => cancel(new SdkError(SdkErrorCode.RequestTimeout, 'Request timed out', { timeout })), timeout);
      this.pending.set(id, {
        onResult,
        resolve: (result) => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          resolve(result);
        },
        reject: (error) => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          reject(error);
        },
      });
      signal?.addEventListener('abort', onAbort, { once: true });
      written.catch((error: unknown) => {
        const waiting = this.pending.get(id);
        this.pending.delete(id);
        waiting?.reject(error);
      });
    });
  }

  private failAll(error: Error): void {
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const request of waiting) request.reject(error);
  }
}

/** A 2025-era result never carries `resultType` (the SDK's legacy codec drops it the same way). */
function withoutResultType(result: Params): Params {
  if (result === null || typeof result !== 'object' || !('resultType' in result)) return result;
  const { resultType: _dropped, ...rest } = result;
  return rest;
}
