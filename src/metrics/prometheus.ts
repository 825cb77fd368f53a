// Owns the Prometheus view of the gateway: call counters, latency histogram, server states and sessions (prom-client).
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { FAILURE_OUTCOMES, type CallOutcome } from '../store/types.js';

/** Latency buckets in seconds, 1 ms to 60 s (roughly 1-2.5-5 per decade). */
export const DURATION_BUCKETS_SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/** Connection states every server gets a series for from its first report (mirrors servers' ConnectionState). */
export const DEFAULT_SERVER_STATES = ['configured', 'connecting', 'connected', 'failed', 'stopped'] as const;

export const METRIC_PREFIX = 'switchboard_';

export interface MetricsRegistryOptions {
  /** States pre-declared per server so dashboards see 0 rather than no series (default DEFAULT_SERVER_STATES). */
  states?: readonly string[];
  /** Collect prom-client's default process metrics, prefixed "switchboard_" (default true). */
  defaultMetrics?: boolean;
}

export interface MetricsRegistry {
  /** A fresh registry (never prom-client's global one), so several gateways or tests do not mix. */
  readonly registry: Registry;
  /** Content-Type header value for `render()`'s output. */
  readonly contentType: string;
  /** Counts a finished call and observes its duration. Failures (not ok, not cancelled) also count as errors. */
  observeCall(server: string, tool: string, outcome: CallOutcome, durationMs: number): void;
  /** Sets switchboard_server_state to 1 for `state` and 0 for every other state seen for this server. */
  setConnectionState(server: string, state: string): void;
  /** Drops a removed server's state series (its call counters stay, as counters should). */
  removeServer(server: string): void;
  setOpenSessions(n: number): void;
  /** The text exposition format, for GET /metrics. */
  render(): Promise<string>;
}

const FAILURES = new Set<string>(FAILURE_OUTCOMES);

export function createMetricsRegistry(options: MetricsRegistryOptions = {}): MetricsRegistry {
  const registry = new Registry();
  if (options.defaultMetrics ?? true) collectDefaultMetrics({ register: registry, prefix: METRIC_PREFIX });
  const knownStates = options.states ?? DEFAULT_SERVER_STATES;

  const calls = new Counter({
    name: `${METRIC_PREFIX}tool_calls_total`,
    help: 'Tool calls forwarded to downstream servers, by outcome.',
    labelNames: ['server', 'tool', 'outcome'] as const,
    registers: [registry],
  });
  const errors = new Counter({
    name: `${METRIC_PREFIX}tool_errors_total`,
    help: 'Tool calls that failed (tool error, protocol error, timeout or server down).',
    labelNames: ['server', 'tool'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: `${METRIC_PREFIX}tool_call_duration_seconds`,
    help: 'Time from forwarding a tool call to its answer.',
    labelNames: ['server', 'tool'] as const,
    buckets: DURATION_BUCKETS_SECONDS,
    registers: [registry],
  });
  const serverState = new Gauge({
    name: `${METRIC_PREFIX}server_state`,
    help: 'Connection state per downstream server: 1 for the current state, 0 for the others.',
    labelNames: ['server', 'state'] as const,
    registers: [registry],
  });
  const sessions = new Gauge({
    name: `${METRIC_PREFIX}sessions_open`,
    help: 'Client sessions currently open.',
    registers: [registry],
  });

  const statesByServer = new Map<string, Set<string>>();

  return {
    registry,
    contentType: registry.contentType,
    observeCall(server, tool, outcome, durationMs) {
      calls.inc({ server, tool, outcome });
      if (FAILURES.has(outcome)) errors.inc({ server, tool });
      if (Number.isFinite(durationMs) && durationMs >= 0) duration.observe({ server, tool }, durationMs / 1000);
    },
    setConnectionState(server, state) {
      let seen = statesByServer.get(server);
      if (!seen) {
        seen = new Set(knownStates);
        statesByServer.set(server, seen);
      }
      seen.add(state);
      for (const s of seen) serverState.set({ server, state: s }, s === state ? 1 : 0);
    },
    removeServer(server) {
      for (const state of statesByServer.get(server) ?? []) serverState.remove({ server, state });
      statesByServer.delete(server);
    },
    setOpenSessions(n) {
      sessions.set(n);
    },
    render: () => registry.metrics(),
  };
}
