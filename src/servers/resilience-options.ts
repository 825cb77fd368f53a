// Owns the knobs of a connection's resilience (timeouts, retries, breaker, health checks,
// shutdown grace). Their defaults are the settings' (config/schema.ts DEFAULT_SETTINGS), not a copy.
import { DEFAULT_SETTINGS } from '../config/index.js';
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

const { lazy: _lazy, ...resilienceDefaults } = DEFAULT_SETTINGS.resilience;
export const DEFAULT_RESILIENCE: ResilienceOptions = resilienceDefaults;
