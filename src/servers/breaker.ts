// Owns one server's circuit breaker: after `failureThreshold` server faults in a row (unavailable
// or timed out; the server's own errors do not count) calls fail fast with the server, since when
// and when to retry, until a probe call after `halfOpenAfterMs` succeeds. The breaker is cockatiel's;
// cockatiel (CommonJS, ~28 modules, ~50 ms to load) is loaded by the first server fault of any
// breaker, not with the gateway nor by a first call: until a fault the circuit is closed with
// nothing counted, so calls go straight through and a session's first call does not wait for it.
import type { CircuitBreakerPolicy } from 'cockatiel';
import type { Logger } from '../logging/logger.js';
import { isServerFault, serverUnavailable } from './errors.js';

export interface BreakerSettings {
  failureThreshold: number;
  halfOpenAfterMs: number;
}

type Cockatiel = typeof import('cockatiel');
/** cockatiel once it has loaded: set before any breaker has a policy, so a breaker with one reads it freely. */
let loaded: Cockatiel | undefined;
let loading: Promise<Cockatiel> | undefined;
/** cockatiel, loaded once for every breaker of the process; a load that failed is tried again by the next request that needs it. */
const cockatiel = (): Promise<Cockatiel> =>
  (loading ??= import('cockatiel').then(
    (lib) => (loaded = lib),
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  ));

export class ServerBreaker {
  /** Built by the first fault (cockatiel loaded by then); undefined: no fault yet, so closed. */
  private policy: CircuitBreakerPolicy | undefined;
  /** A server fault was seen: every call goes through the policy from then on. */
  private faulted = false;
  private openedAt: number | undefined;

  constructor(
    private readonly serverKey: string,
    private readonly settings: BreakerSettings,
    private readonly log: Logger,
    private readonly onChange: () => void,
  ) {}

  /** The policy, built at the first fault (no fault was counted before it, so it starts closed). */
  private async build(): Promise<CircuitBreakerPolicy> {
    const lib = await cockatiel();
    if (this.policy) return this.policy;
    const { failureThreshold, halfOpenAfterMs } = this.settings;
    const policy = lib.circuitBreaker(lib.handleWhen(isServerFault), { halfOpenAfter: halfOpenAfterMs, breaker: new lib.ConsecutiveBreaker(failureThreshold) });
    policy.onBreak(() => {
      this.openedAt = Date.now();
      this.log.warn({ failures: failureThreshold, halfOpenAfterMs }, 'circuit open: calls fail fast until a probe succeeds');
      this.onChange();
    });
    policy.onReset(() => {
      this.openedAt = undefined;
      this.log.info('circuit closed: the server answers again');
      this.onChange();
    });
    this.policy = policy;
    return policy;
  }

  get open(): boolean {
    return this.policy !== undefined && this.policy.state === loaded!.CircuitState.Open;
  }

  /** Runs a call through the breaker; a refused call becomes an actionable "unavailable" error. */
  execute<T>(call: () => Promise<T>, context: () => { lastError?: string; downSince?: Date }): Promise<T> {
    if (this.policy || this.faulted) return this.throughPolicy(call, context);
    // No fault yet: the circuit is closed with nothing counted, so the call needs no policy, and
    // cockatiel does not load on the way of a session's first call (docs/performance.md). The first
    // fault builds the policy and is counted through it, as is the fault of any call that went out
    // before it; a success among those calls is not counted (it would only have reset the run).
    let sent: Promise<T>;
    try {
      sent = call();
    } catch (error) {
      sent = Promise.reject(error);
    }
    return sent.catch((error: unknown) => {
      if (!isServerFault(error)) throw error;
      this.faulted = true;
      return this.count(error);
    });
  }

  /** Counts a fault of a call that went around the policy, then rethrows it. */
  private async count(error: unknown): Promise<never> {
    try {
      const policy = this.policy ?? (await this.build());
      await policy.execute(() => Promise.reject(error));
    } catch {
      // the fault itself (or an open circuit's refusal): the call's own error is what its caller gets
    }
    throw error;
  }

  private async throughPolicy<T>(call: () => Promise<T>, context: () => { lastError?: string; downSince?: Date }): Promise<T> {
    const policy = this.policy ?? (await this.build());
    try {
      return await policy.execute(call);
    } catch (error) {
      if (!loaded!.isBrokenCircuitError(error)) throw error;
      const { lastError, downSince } = context();
      const retryAfterMs = Math.max(0, this.settings.halfOpenAfterMs - (Date.now() - (this.openedAt ?? Date.now())));
      throw serverUnavailable(this.serverKey, `${this.settings.failureThreshold} requests in a row failed (last: ${lastError ?? 'unknown'}); calls fail fast for now`, {
        state: 'circuit-open',
        downSince,
        retryAfterMs,
      });
    }
  }
}
