// Owns the periodic health check of one connected server: a ping with a timeout. An answer of any
// kind (even "method not found") proves the server alive; silence counts as a failure, except while
// the server is busy with calls (a stdio server answering a big result cannot answer a ping before it
// is done; those calls have their own timeouts).
import type { Client } from '@modelcontextprotocol/client';
import { ProtocolError } from '@modelcontextprotocol/client';

export interface HealthSettings {
  intervalMs: number;
  timeoutMs: number;
  failuresBeforeRestart: number;
}

export interface HealthEvents {
  alive(): void;
  /** `consecutive` failures so far; the caller decides when to restart. */
  silent(consecutive: number): void;
  /** Whether calls are in flight: then an unanswered ping proves nothing and is not counted. */
  busy(): boolean;
}

export class HealthMonitor {
  private timer: NodeJS.Timeout | undefined;
  private failures = 0;
  private running = false;

  constructor(
    private readonly client: Client,
    private readonly settings: HealthSettings,
    private readonly events: HealthEvents,
  ) {}

  start(): void {
    if (this.settings.intervalMs <= 0 || this.timer) return;
    this.timer = setInterval(() => void this.check(), this.settings.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private async check(): Promise<void> {
    if (this.running) return; // the previous check is still waiting
    this.running = true;
    try {
      await this.client.ping({ timeout: this.settings.timeoutMs });
      this.answered();
    } catch (error) {
      if (error instanceof ProtocolError) this.answered();
      else if (!this.events.busy()) {
        this.failures++;
        this.events.silent(this.failures);
      }
    } finally {
      this.running = false;
    }
  }

  private answered(): void {
    this.failures = 0;
    this.events.alive();
  }
}
