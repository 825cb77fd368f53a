// Owns the knobs of a connection's resilience (timeouts, retries, breaker, health checks,
// shutdown grace) and their defaults, in one place.
import type { HealthSettings } from './health.js';

export interface ResilienceOptions {
  connectTimeoutMs: number;
  /** A request is cancelled after this long even while it reports progress. */
  maxRequestMs: number;
  retry: { maxAttempts: number; initialDelayMs: number; maxDelayMs: number };
  breaker: { failureThreshold: number; halfOpenAfterMs: number };
  healthCheck: HealthSettings;
  shutdownGraceMs: number;
}

export const DEFAULT_RESILIENCE: ResilienceOptions = {
  connectTimeoutMs: 30_000,
  maxRequestMs: 60 * 60 * 1000,
  retry: { maxAttempts: 5, initialDelayMs: 1000, maxDelayMs: 16_000 },
  breaker: { failureThreshold: 5, halfOpenAfterMs: 30_000 },
  healthCheck: { intervalMs: 30_000, timeoutMs: 5000, failuresBeforeRestart: 2 },
  shutdownGraceMs: 1000,
};
