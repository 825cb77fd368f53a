// Owns one server's circuit breaker: after `failureThreshold` server faults in a row (unavailable
// or timed out; the server's own errors do not count) calls fail fast with the server, since when
// and when to retry, until a probe call after `halfOpenAfterMs` succeeds. The breaker is cockatiel's;
// cockatiel (CommonJS, ~28 modules, ~50 ms to load) is loaded by the first request through any
// breaker, not with the gateway, so it is off the path from a gateway's start to its initialize answer.
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
/** cockatiel, loaded once for every breaker of the process; a load that failed is tried again by the next request. */
const cockatiel = (): Promise<Cockatiel> =>
  (loading ??= import('cockatiel').then(
    (lib) => (loaded = lib),
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  ));

export class ServerBreaker {
  /** Built by the first request (cockatiel loaded by then); undefined: no call yet, so closed. */
  private policy: CircuitBreakerPolicy | undefined;
  private openedAt: number | undefined;

  constructor(
    private readonly serverKey: string,
    private readonly settings: BreakerSettings,
    private readonly log: Logger,
    private readonly onChange: () => void,
  ) {}

  /** The policy, built on first use (no call has gone through before that, so it starts closed). */
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
  async execute<T>(call: () => Promise<T>, context: () => { lastError?: string; downSince?: Date }): Promise<T> {
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
