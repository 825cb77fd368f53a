// Owns when a connection tries again: the count of consecutive failed attempts, the backoff timer to
// the next attempt (until maxAttempts is reached) and when that attempt is due (shown in status).
import { backoffDelay, type BackoffSettings } from './backoff.js';

export interface RetrySettings extends BackoffSettings {
  maxAttempts: number;
}

export class RetrySchedule {
  /** Consecutive failed attempts (reset when the server proves alive). */
  attempts = 0;
  /** When the next automatic attempt is due, if one is scheduled. */
  nextRetryAt: Date | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly settings: RetrySettings) {}

  /** Calls `retry` after the backoff for the current attempt count; false (nothing scheduled) when attempts are used up. */
  schedule(retry: () => void): boolean {
    if (this.attempts >= this.settings.maxAttempts) return false;
    const delay = backoffDelay(this.attempts, this.settings);
    this.nextRetryAt = new Date(Date.now() + delay);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.nextRetryAt = undefined;
      retry();
    }, delay);
    this.timer.unref();
    return true;
  }

  cancel(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.nextRetryAt = undefined;
  }
}
