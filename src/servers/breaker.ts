// Owns one server's circuit breaker: after `failureThreshold` server faults in a row (unavailable
// or timed out; the server's own errors do not count) calls fail fast with the server, since when
// and when to retry, until a probe call after `halfOpenAfterMs` succeeds.
import { circuitBreaker, CircuitState, ConsecutiveBreaker, handleWhen, isBrokenCircuitError, type CircuitBreakerPolicy } from 'cockatiel';
import type { Logger } from '../logging/logger.js';
import { isServerFault, serverUnavailable } from './errors.js';

export interface BreakerSettings {
  failureThreshold: number;
  halfOpenAfterMs: number;
}

export class ServerBreaker {
  private readonly policy: CircuitBreakerPolicy;
  private openedAt: number | undefined;

  constructor(
    private readonly serverKey: string,
    private readonly settings: BreakerSettings,
    log: Logger,
    onChange: () => void,
  ) {
    this.policy = circuitBreaker(handleWhen(isServerFault), { halfOpenAfter: settings.halfOpenAfterMs, breaker: new ConsecutiveBreaker(settings.failureThreshold) });
    this.policy.onBreak(() => {
      this.openedAt = Date.now();
      log.warn({ failures: settings.failureThreshold, halfOpenAfterMs: settings.halfOpenAfterMs }, 'circuit open: calls fail fast until a probe succeeds');
      onChange();
    });
    this.policy.onReset(() => {
      this.openedAt = undefined;
      log.info('circuit closed: the server answers again');
      onChange();
    });
  }

  get open(): boolean {
    return this.policy.state === CircuitState.Open;
  }

  /** Runs a call through the breaker; a refused call becomes an actionable "unavailable" error. */
  async execute<T>(call: () => Promise<T>, context: () => { lastError?: string; downSince?: Date }): Promise<T> {
    try {
      return await this.policy.execute(call);
    } catch (error) {
      if (!isBrokenCircuitError(error)) throw error;
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
