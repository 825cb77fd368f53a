// Owns the reconnect delay: exponential (initial, 2x, 4x, ... capped) with +-20% jitter, so many
// gateways or servers restarting together do not retry in lockstep.
export interface BackoffSettings {
  initialDelayMs: number;
  maxDelayMs: number;
}

/** Delay before retry number `attempt` (1 = the first retry). */
export function backoffDelay(attempt: number, settings: BackoffSettings, random: () => number = Math.random): number {
  const base = Math.min(settings.maxDelayMs, settings.initialDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(base * (0.8 + 0.4 * random()));
}
