// Owns one server's circuit breaker: after `failureThreshold` server faults in a row (unavailable
// or timed out; the server's own errors do not count) calls fail fast with the server, since when
// and when to retry, until a probe call after `halfOpenAfterMs` succeeds. While the probe runs,
// other calls wait for it and then go through the breaker again. (Written here rather than taken
// from cockatiel, whose CommonJS build cost a stdio gateway ~50 ms of its start for three states.)
import type { Logger } from '../logging/logger.js';
import { isServerFault, serverUnavailable } from './errors.js';

export interface BreakerSettings {
  failureThreshold: number;
  halfOpenAfterMs: number;
}

type BreakerState = { kind: 'closed'; faults: number } | { kind: 'open'; openedAt: number } | { kind: 'half-open'; probe: Promise<unknown> };

/** Thrown inside execute() for a call the open circuit refuses; turned into an "unavailable" error. */
class CircuitRefusal extends Error {}

export class ServerBreaker {
  private state: BreakerState = { kind: 'closed', faults: 0 };
  private openedAt: number | undefined;

  constructor(
    private readonly serverKey: string,
    private readonly settings: BreakerSettings,
    private readonly log: Logger,
    private readonly onChange: () => void,
  ) {}

  get open(): boolean {
    return this.state.kind === 'open';
  }

  /** Runs a call through the breaker; a refused call becomes an actionable "unavailable" error. */
  async execute<T>(call: () => Promise<T>, context: () => { lastError?: string; downSince?: Date }): Promise<T> {
    try {
      return await this.run(call);
    } catch (error) {
      if (!(error instanceof CircuitRefusal)) throw error;
      const { lastError, downSince } = context();
      const retryAfterMs = Math.max(0, this.settings.halfOpenAfterMs - (Date.now() - (this.openedAt ?? Date.now())));
      throw serverUnavailable(this.serverKey, `${this.settings.failureThreshold} requests in a row failed (last: ${lastError ?? 'unknown'}); calls fail fast for now`, {
        state: 'circuit-open',
        downSince,
        retryAfterMs,
      });
    }
  }

  private async run<T>(call: () => Promise<T>): Promise<T> {
    const state = this.state;
    if (state.kind === 'half-open') {
      await state.probe.catch(() => undefined);
      return this.run(call);
    }
    if (state.kind === 'open') {
      if (Date.now() - state.openedAt < this.settings.halfOpenAfterMs) throw new CircuitRefusal();
      const probe = this.probe(call);
      this.state = { kind: 'half-open', probe };
      return probe;
    }
    try {
      const result = await call();
      if (this.state === state) state.faults = 0;
      return result;
    } catch (error) {
      if (isServerFault(error) && this.state === state && ++state.faults >= this.settings.failureThreshold) this.trip();
      throw error;
    }
  }

  /** The one call let through after halfOpenAfterMs: a server fault opens the circuit again, anything else closes it. */
  private async probe<T>(call: () => Promise<T>): Promise<T> {
    try {
      const result = await call();
      this.reset();
      return result;
    } catch (error) {
      if (isServerFault(error)) this.trip();
      else this.reset(); // the server answered (with an error of its own): it is up
      throw error;
    }
  }

  private trip(): void {
    this.openedAt = Date.now();
    this.state = { kind: 'open', openedAt: this.openedAt };
    this.log.warn({ failures: this.settings.failureThreshold, halfOpenAfterMs: this.settings.halfOpenAfterMs }, 'circuit open: calls fail fast until a probe succeeds');
    this.onChange();
  }

  private reset(): void {
    this.openedAt = undefined;
    this.state = { kind: 'closed', faults: 0 };
    this.log.info('circuit closed: the server answers again');
    this.onChange();
  }
}
