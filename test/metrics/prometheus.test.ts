import { describe, expect, it } from 'vitest';
import { createMetricsRegistry, DURATION_BUCKETS_SECONDS } from '../../src/metrics/prometheus.js';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Parses the sample lines of the Prometheus text format: `name{a="x",b="y"} value` or `name value`. */
function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)(?: \d+)?$/.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const pair of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) {
      labels[pair[1]] = pair[2].replace(/\\(["\\n])/g, (_, c: string) => (c === 'n' ? '\n' : c));
    }
    const raw = match[3];
    samples.push({ name: match[1], labels, value: raw === '+Inf' ? Infinity : raw === '-Inf' ? -Infinity : Number(raw) });
  }
  return samples;
}

/** The value of the one sample with this name whose labels include `labels`. */
function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  const found = samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  if (found.length > 1) throw new Error(`${name} ${JSON.stringify(labels)} matches ${found.length} samples`);
  return found[0]?.value;
}

describe('createMetricsRegistry', () => {
  it('exports call counters, errors, a latency histogram, server states and open sessions', async () => {
    const metrics = createMetricsRegistry();
    metrics.observeCall('fs', 'read', 'ok', 4);
    metrics.observeCall('fs', 'read', 'ok', 40);
    metrics.observeCall('fs', 'read', 'tool_error', 2500);
    metrics.observeCall('fs', 'read', 'cancelled', 10);
    metrics.observeCall('mem', 'get "x"', 'timeout', 60_000);
    metrics.setConnectionState('fs', 'connecting');
    metrics.setConnectionState('fs', 'connected');
    metrics.setConnectionState('mem', 'degraded');
    metrics.setOpenSessions(3);

    const samples = parseExposition(await metrics.render());
    const calls = 'switchboard_tool_calls_total';
    expect(valueOf(samples, calls, { server: 'fs', tool: 'read', outcome: 'ok' })).toBe(2);
    expect(valueOf(samples, calls, { server: 'fs', tool: 'read', outcome: 'tool_error' })).toBe(1);
    expect(valueOf(samples, calls, { server: 'fs', tool: 'read', outcome: 'cancelled' })).toBe(1);
    expect(valueOf(samples, calls, { server: 'mem', tool: 'get "x"', outcome: 'timeout' })).toBe(1);
    expect(valueOf(samples, 'switchboard_tool_errors_total', { server: 'fs', tool: 'read' })).toBe(1);
    expect(valueOf(samples, 'switchboard_tool_errors_total', { server: 'mem' })).toBe(1);

    const hist = 'switchboard_tool_call_duration_seconds';
    const fs = { server: 'fs', tool: 'read' };
    expect(valueOf(samples, `${hist}_count`, fs)).toBe(4);
    expect(valueOf(samples, `${hist}_sum`, fs)).toBeCloseTo(2.554, 6);
    expect(valueOf(samples, `${hist}_bucket`, { ...fs, le: '0.005' })).toBe(1);
    expect(valueOf(samples, `${hist}_bucket`, { ...fs, le: '0.05' })).toBe(3);
    expect(valueOf(samples, `${hist}_bucket`, { ...fs, le: '2.5' })).toBe(4);
    expect(valueOf(samples, `${hist}_bucket`, { ...fs, le: '+Inf' })).toBe(4);
    expect(valueOf(samples, `${hist}_bucket`, { server: 'mem', le: '30' })).toBe(0);
    expect(valueOf(samples, `${hist}_bucket`, { server: 'mem', le: '60' })).toBe(1);
    const les = samples.filter((s) => s.name === `${hist}_bucket` && s.labels.server === 'fs').map((s) => s.labels.le);
    expect(les).toEqual([...DURATION_BUCKETS_SECONDS.map(String), '+Inf']);

    const state = 'switchboard_server_state';
    expect(valueOf(samples, state, { server: 'fs', state: 'connected' })).toBe(1);
    expect(valueOf(samples, state, { server: 'fs', state: 'connecting' })).toBe(0);
    expect(valueOf(samples, state, { server: 'fs', state: 'failed' })).toBe(0);
    expect(valueOf(samples, state, { server: 'mem', state: 'degraded' })).toBe(1);
    expect(samples.filter((s) => s.name === state && s.labels.server === 'fs').reduce((sum, s) => sum + s.value, 0)).toBe(1);
    expect(valueOf(samples, 'switchboard_sessions_open')).toBe(3);

    // Default process metrics, prefixed.
    expect(valueOf(samples, 'switchboard_process_cpu_user_seconds_total')).toBeGreaterThanOrEqual(0);
    expect(samples.some((s) => s.name.startsWith('switchboard_nodejs_'))).toBe(true);
    expect(samples.every((s) => s.name.startsWith('switchboard_'))).toBe(true);
  });

  it('uses a fresh registry each time and can drop a removed server’s state series', async () => {
    const a = createMetricsRegistry({ defaultMetrics: false });
    const b = createMetricsRegistry({ defaultMetrics: false });
    expect(a.registry).not.toBe(b.registry);
    a.observeCall('fs', 'read', 'ok', 1);
    a.setConnectionState('fs', 'connected');
    expect(parseExposition(await b.render()).some((s) => s.name === 'switchboard_tool_calls_total')).toBe(false);
    a.removeServer('fs');
    const samples = parseExposition(await a.render());
    expect(samples.some((s) => s.name === 'switchboard_server_state')).toBe(false);
    expect(valueOf(samples, 'switchboard_tool_calls_total', { server: 'fs' })).toBe(1);
    expect(a.contentType).toMatch(/^text\/plain/);
  });
});
