// Owns sending one request on a connected SDK client: the plain hot path (the SDK's own timer and the
// caller's signal, nothing of ours allocated per call), the path with progress (a per-hop progress
// token, an idle timeout re-armed by every update up to a hard maximum, the caller's signal followed),
// the count of requests in flight, which session a log message arriving meanwhile belongs to, and how
// each failure is reported (cancelled, timed out, login lost, the server's own error kept as it came).
// What an answer or a failure means for the connection's life is the connection's business (SendOutcomes).
import { ProtocolError, SdkError, SdkErrorCode, type Client } from '@modelcontextprotocol/client';
import { z } from 'zod';
import { isLoginRequired } from '../auth/errors.js';
import { fromClientError, requestCancelled, serverTimeout } from './errors.js';
import { LogCallers } from './log-callers.js';
import { ProgressRouter } from './progress-router.js';
import { RawRequests } from './raw-requests.js';
import { abortSignalOf, type CancelSignal } from './call-cancel.js';

type Params = Record<string, unknown>;

const ANY_RESULT = z.any();

export interface SendOptions {
  /** The caller's cancel: an AbortSignal, or a lane call's CallCancel (call-cancel.ts). */
  signal?: CancelSignal;
  onprogress?: (progress: Params) => void;
  /** Who the request is for (a client session's id): log messages that arrive while it runs name it (log-callers.ts). */
  caller?: string;
  /**
   * Called with the server's result the moment it comes off the wire, before the request's promise
   * settles and its bookkeeping runs (raw-requests.ts). Only on the relay lane, only for a request
   * without progress; elsewhere the promise alone carries the result.
   */
  onResult?: (result: Params) => void;
}

/** What an answer or a failure means to the connection that sent it; built once per connection. */
export interface SendOutcomes {
  /** The server answered (a result or its own error): it is alive. */
  answered(): void;
  /** The request got no answer in time on this client. */
  timedOut(client: Client): void;
  /** The server asked for a login again: the connection stops and throws what to do. */
  loginLost(client: Client, error: unknown): never;
  /** Why the server is not serving, for the error a failed request throws. */
  downState(): { lastError?: string; downSince?: Date };
}

export class RequestSender {
  /** Progress notifications routed to the request they belong to (attach to each new transport). */
  readonly progress = new ProgressRouter();
  /** Log messages attributed to the sessions whose requests are running (attach to each new transport). */
  readonly logCallers = new LogCallers();
  /** The relay lane of a 2025-era server (attach to each new transport of that era): see raw-requests.ts. */
  readonly raw = new RawRequests();
  /** Requests sent and not answered yet (health checks do not count while there are any). */
  private inflight = 0;
  /** What waits for no request to be in flight (whenIdle). */
  private idleWaiters: Array<() => void> = [];

  constructor(
    private readonly serverKey: string,
    private readonly outcomes: SendOutcomes,
  ) {}

  get busy(): boolean {
    return this.inflight > 0;
  }

  /** Runs `then` (which must not throw) once no request is in flight (at once when none is), or after `maxWaitMs` at the latest. */
  whenIdle(then: () => void, maxWaitMs: number): void {
    if (this.inflight === 0) return then();
    const once = () => {
      clearTimeout(timer);
      this.idleWaiters = this.idleWaiters.filter((waiter) => waiter !== once);
      then();
    };
    const timer = setTimeout(once, maxWaitMs);
    timer.unref();
    this.idleWaiters.push(once);
  }

  private ended(): void {
    if (--this.inflight > 0 || this.idleWaiters.length === 0) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const waiter of waiters) waiter();
  }

  /**
   * The hot path (no progress to follow): on a 2025-era server the relay lane (raw-requests.ts),
   * else the SDK's own timer and the caller's signal (see docs/decisions/0004-hot-path.md).
   */
  async sendPlain(client: Client, method: string, params: Params | undefined, options: SendOptions, timeout: number): Promise<Params> {
    const { signal, caller } = options;
    this.inflight++;
    this.logCallers.begin(caller);
    try {
      const result = this.raw.usable(client.transport)
        ? await this.raw.send(method, params, signal, timeout, options.onResult)
        : await client.request({ method: method as 'ping', params }, ANY_RESULT, { ...(signal && { signal: abortSignalOf(signal) }), timeout });
      this.outcomes.answered();
      return result;
    } catch (error) {
      if (signal?.aborted) throw requestCancelled(this.serverKey, method); // reported by the SDK as a timeout
      if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout) {
        this.outcomes.timedOut(client);
        throw serverTimeout(this.serverKey, method, timeout);
      }
      throw this.failed(client, error, method, timeout);
    } finally {
      this.logCallers.end(caller);
      this.ended();
    }
  }

  /**
   * With progress: the downstream gets a progress token of this hop, each update re-arms the idle
   * timeout (timeoutMs) and reaches the caller; maxRequestMs bounds the whole request; a request that
   * times out or whose signal aborts is cancelled downstream.
   */
  async sendWithProgress(client: Client, method: string, params: Params | undefined, options: SendOptions & { onprogress: (progress: Params) => void }, timeoutMs: number, maxRequestMs: number): Promise<Params> {
    const timedOut = new AbortController();
    let idle: NodeJS.Timeout | undefined;
    const arm = () => {
      clearTimeout(idle);
      idle = setTimeout(() => timedOut.abort(), timeoutMs);
    };
    const onprogress = options.onprogress;
    const token = this.progress.register((progress) => {
      arm();
      onprogress(progress);
    });
    const forwarded = { ...params, _meta: { ...(params?._meta as Params | undefined), progressToken: token } };
    arm();
    // One controller per call, following the caller's signal by a listener removed afterwards
    // (cheaper than AbortSignal.any).
    const outer = options.signal;
    const follow = () => timedOut.abort(outer?.reason);
    if (outer?.aborted) follow();
    else outer?.addEventListener('abort', follow, { once: true });
    try {
      this.inflight++;
      this.logCallers.begin(options.caller);
      const result = await client.request({ method: method as 'ping', params: forwarded }, ANY_RESULT, { signal: timedOut.signal, timeout: maxRequestMs }).finally(() => {
        this.logCallers.end(options.caller);
        this.ended();
      });
      this.outcomes.answered();
      return result;
    } catch (error) {
      // The SDK reports an aborted request as a timeout: the client's own cancel is no fault of the server.
      if (outer?.aborted) throw requestCancelled(this.serverKey, method);
      if (timedOut.signal.aborted) {
        this.outcomes.timedOut(client);
        throw serverTimeout(this.serverKey, method, timeoutMs);
      }
      throw this.failed(client, error, method, maxRequestMs);
    } finally {
      clearTimeout(idle);
      outer?.removeEventListener('abort', follow);
      this.progress.unregister(token);
    }
  }

  /** A failure that is neither a cancel nor our timeout: the server's own error as it came, else what the SDK said. */
  private failed(client: Client, error: unknown, method: string, timeoutMs: number): unknown {
    if (error instanceof ProtocolError) this.outcomes.answered(); // it answered, with an error
    if (isLoginRequired(error)) this.outcomes.loginLost(client, error);
    return fromClientError(this.serverKey, error, method, timeoutMs, this.outcomes.downState());
  }
}
