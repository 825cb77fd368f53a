// Owns the MRTR bridge: a 2025-era downstream server that asks its client something
// (sampling/createMessage, elicitation/create, roots/list) during a 2026-07-28 client's call. The
// downstream call runs on a connection of its own (its profile is owned by the call's handle), its
// request is held open, and the client gets `input_required` with the question and a requestState
// that is an HMAC-sealed handle bound to that client. The retry's inputResponses answer the held
// request; the call's result (or the next question) is the retry's answer. A handle nobody retries
// expires (the TTL runs only while no request of the client waits on the call, so a slow start never
// counts): the downstream call is cancelled and its connection stopped.
import { randomBytes, randomUUID } from 'node:crypto';
import { ProtocolError, createRequestStateCodec, type RequestStateCodec, type ServerContext } from '@modelcontextprotocol/server';

type Result = Record<string, unknown>;

/** What the sealed requestState carries: which pending call it continues, and at which round. */
interface BridgeState {
  handle: string;
  /** The call it continues: a handle (a lane, bridge-lanes.ts) serves one call after another. */
  call: string;
  /** The round that minted it: each round's state differs, and only the latest one continues the call. */
  round: number;
}

interface Question {
  key: string;
  method: string;
  params: Record<string, unknown> | undefined;
  /** Sent to the client in an input_required result (and not answered yet). */
  asked: boolean;
  answer(result: unknown): void;
  fail(error: Error): void;
}

interface PendingCall {
  handle: string;
  /** This call's own id (its handle outlives it when its lane is reused). */
  call: string;
  outcome: { result?: Result; error?: unknown } | undefined;
  questions: Question[];
  abort: AbortController;
  /** Runs only while no request of the client waits on the call: from an input_required answer (or the last waiting request's cancel) to the next retry. */
  timer: NodeJS.Timeout | undefined;
  /** Requests of the client waiting on the call now (a retry sent twice waits twice). */
  waiting: number;
  /** Wake every round waiting for the call's outcome or its next question. */
  wakers: Set<() => void>;
  /** `settled`: the call answered (its connection may serve another call); else it expired or was stopped. */
  onEnd: (handle: string, settled: boolean) => void;
  nextKey: number;
  /** Rounds answered with input_required so far. */
  round: number;
}

/** How long a round waits for a server's next question after its last one. */
const QUIET_MS = 25;
/** The longest a round waits to gather questions that arrive together. */
const GATHER_LIMIT_MS = 250;

export interface BridgeOptions {
  /** A handle not continued within this long expires (default 10 minutes; setting inputRequiredTtlMs). */
  ttlMs?: number;
  /** Where an expiry is reported (the gateway's logger). */
  log?: { info(fields: Record<string, unknown>, message: string): void };
}

/** The client a request comes from: its token's name, and the name it gives in clientInfo. */
export function clientOf(ctx: ServerContext): string {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const info = envelope?.['io.modelcontextprotocol/clientInfo'] as { name?: string } | undefined;
  return `${ctx.http?.authInfo?.clientId ?? ''}\0${info?.name ?? ''}`;
}

/** What a requestState is bound to: the client and the method. */
function clientBinding(ctx: ServerContext): string {
  return `${ctx.mcpReq.method}\0${clientOf(ctx)}`;
}

function wakeRounds(call: PendingCall): void {
  for (const wake of [...call.wakers]) wake();
}

export class MrtrBridge {
  private readonly pending = new Map<string, PendingCall>();
  private readonly ttlMs: number;
  private readonly log: BridgeOptions['log'];
  readonly codec: RequestStateCodec<BridgeState>;

  constructor(options: BridgeOptions = {}) {
    this.ttlMs = options.ttlMs ?? 10 * 60 * 1000;
    this.log = options.log;
    this.codec = createRequestStateCodec<BridgeState>({ key: randomBytes(32), ttlSeconds: Math.ceil(this.ttlMs / 1000), bind: clientBinding });
  }

  get size(): number {
    return this.pending.size;
  }

  /** Whether a connection owner is one of the bridge's handles. */
  owns(owner: string | undefined): boolean {
    return owner !== undefined && this.pending.has(owner);
  }

  /**
   * Starts a downstream call under a handle (the owner of the call's own connection; a new one
   * unless given). `run` gets the handle and the signal that cancels it; `onEnd` releases or reuses
   * that connection.
   */
  async start(ctx: ServerContext, run: (handle: string, signal: AbortSignal) => Promise<Result>, onEnd: (handle: string, settled: boolean) => void, lane?: string): Promise<Result> {
    const handle = lane !== undefined && !this.pending.has(lane) ? lane : randomUUID();
    const call: PendingCall = { handle, call: randomUUID(), outcome: undefined, questions: [], abort: new AbortController(), timer: undefined, waiting: 0, wakers: new Set(), onEnd, nextKey: 0, round: 0 };
    this.pending.set(handle, call);
    Promise.resolve().then(() => run(handle, call.abort.signal)).then(
      (result) => this.settle(call, { result }),
      (error: unknown) => this.settle(call, { error }),
    );
    return this.round(call, ctx);
  }

  /**
   * A retry: its requestState is verified (HMAC, expiry, bound to the same client and method), its
   * inputResponses answer the questions asked; then the result or the next question.
   */
  async resume(ctx: ServerContext, sealed: string): Promise<Result> {
    let state: BridgeState;
    try {
      state = await this.codec.verify(sealed, ctx);
    } catch (error) {
      throw new ProtocolError(-32602, `Invalid or expired requestState (${(error as Error).message}); call the tool again without it.`);
    }
    const found = this.pending.get(state.handle);
    const call = found?.call === state.call ? found : undefined;
    if (!call) throw new ProtocolError(-32602, 'Invalid params: this requestState continues no pending call (it ended or expired); call the tool again.');
    if (state.round !== call.round) throw new ProtocolError(-32602, `Invalid params: this requestState is from round ${state.round} of the call, which is at round ${call.round}; send the latest requestState.`);
    const responses = ctx.mcpReq.inputResponses ?? {};
    // A copy: answered questions leave the list while it is walked.
    for (const question of [...call.questions]) {
      if (!question.asked || !(question.key in responses)) continue;
      call.questions.splice(call.questions.indexOf(question), 1);
      question.answer(responses[question.key]);
    }
    // Questions the retry did not answer are asked again.
    for (const question of call.questions) question.asked = false;
    return this.round(call, ctx);
  }

  /** The downstream asked its client something: held until a retry answers it. */
  ask(owner: string, request: { method: string; params?: Record<string, unknown> }, signal: AbortSignal): Promise<unknown> {
    const call = this.pending.get(owner);
    if (!call) return Promise.reject(new ProtocolError(-32603, 'The call that asked this has ended.'));
    return new Promise((answer, fail) => {
      const question: Question = { key: `q${++call.nextKey}`, method: request.method, params: request.params, asked: false, answer, fail };
      call.questions.push(question);
      signal.addEventListener('abort', () => {
        const at = call.questions.indexOf(question);
        if (at >= 0) call.questions.splice(at, 1);
        fail(new Error('the server cancelled its request'));
      }, { once: true });
      wakeRounds(call);
    });
  }

  /** Waits for the call's outcome or a question not yet asked; answers with one or input_required. */
  private async round(call: PendingCall, ctx: ServerContext): Promise<Result> {
    // A request waits on the call now: it cannot expire (a cold connection may take seconds to start).
    clearTimeout(call.timer);
    call.timer = undefined;
    call.waiting += 1;
    let news: boolean;
    try {
      news = await this.awaitNews(call, ctx.mcpReq.signal);
    } finally {
      call.waiting -= 1;
    }
    if (!news) {
      this.armExpiry(call);
      throw new ProtocolError(-32603, 'The request was cancelled; the call goes on until its handle expires.');
    }
    if (call.outcome) {
      this.end(call, true);
      if (call.outcome.error !== undefined) throw call.outcome.error;
      return call.outcome.result!;
    }
    const inputRequests: Record<string, { method: string; params?: Record<string, unknown> }> = {};
    for (const question of call.questions) {
      if (question.asked) continue;
      question.asked = true;
      inputRequests[question.key] = { method: question.method, ...(question.params !== undefined && { params: question.params }) };
    }
    this.armExpiry(call);
    call.round += 1;
    return { resultType: 'input_required', inputRequests, requestState: await this.codec.mint({ handle: call.handle, call: call.call, round: call.round }, ctx) };
  }

  /**
   * Waits until the call has an outcome or questions not yet asked (gathered, see below); false when
   * the request was cancelled first.
   */
  private async awaitNews(call: PendingCall, signal: AbortSignal): Promise<boolean> {
    for (;;) {
      while (!call.outcome && !call.questions.some((q) => !q.asked)) {
        if (signal.aborted) return false;
        await new Promise<void>((resolve) => {
          const wake = () => {
            call.wakers.delete(wake);
            signal.removeEventListener('abort', wake);
            resolve();
          };
          call.wakers.add(wake);
          signal.addEventListener('abort', wake, { once: true });
        });
      }
      if (call.outcome) return true;
      await this.gatherQuestions(call);
      // Cancelled while gathering: the questions stay unasked for the next round (an input_required
      // nobody reads would mark them asked and move the call to a round no client holds).
      if (signal.aborted) return false;
      // Another round waiting on the call may have asked them meanwhile: then wait on.
      if (call.outcome || call.questions.some((q) => !q.asked)) return true;
    }
  }

  /**
   * A server that asks several things at once (the SDK's legacy shim sends all of a round's
   * requests together) has them arrive back to back, not in one read: the round waits until no new
   * question came for QUIET_MS (at most GATHER_LIMIT_MS), so they reach the client in one
   * input_required instead of one round trip each.
   */
  private async gatherQuestions(call: PendingCall): Promise<void> {
    const started = Date.now();
    let seen = -1;
    while (call.questions.length !== seen && !call.outcome && Date.now() - started < GATHER_LIMIT_MS) {
      seen = call.questions.length;
      await new Promise<void>((resolve) => setTimeout(resolve, QUIET_MS));
    }
  }

  /** When no request waits on the call any more: it expires unless a retry comes within the TTL. */
  private armExpiry(call: PendingCall): void {
    if (call.waiting > 0) return; // another retry of the call still waits: the last one to leave arms it
    clearTimeout(call.timer);
    call.timer = setTimeout(() => this.expire(call.handle), this.ttlMs);
    call.timer.unref();
  }

  private settle(call: PendingCall, outcome: { result?: Result; error?: unknown }): void {
    call.outcome = outcome;
    wakeRounds(call);
  }

  private expire(handle: string): void {
    const call = this.pending.get(handle);
    if (!call) return;
    this.log?.info({ handle, ttlMs: this.ttlMs, round: call.round }, 'input_required call expired: no retry came, the downstream call is cancelled');
    call.abort.abort(new Error('the client did not continue the call before its requestState expired'));
    this.end(call, false);
  }

  private end(call: PendingCall, settled: boolean): void {
    if (!this.pending.delete(call.handle)) return;
    clearTimeout(call.timer);
    for (const question of call.questions.splice(0)) question.fail(new Error('the call ended'));
    call.onEnd(call.handle, settled);
  }

  close(): void {
    for (const call of [...this.pending.values()]) {
      call.abort.abort(new Error('the gateway is stopping'));
      this.end(call, false);
    }
  }
}
