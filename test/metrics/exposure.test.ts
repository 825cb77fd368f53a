// How recorded calls are read back from a running HTTP gateway in front of fault-server.ts: the
// Prometheus /metrics page (scraped and parsed), `switchboard metrics --json` on the same store, and the
// admin API (GET and DELETE /api/metrics, GET /api/changes); plus the 404 of a gateway without a store.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Gateway } from '../../src/gateway/gateway.js';
import { createApp } from '../../src/http/app.js';
import type { CatalogChange, ToolStats } from '../../src/store/index.js';
import { runCliJson } from '../cli/run-cli.js';
import { connectHttp, dataDirFor, fixtureServer, startHttpGateway, writeConfig, type ConnectedClient, type RunningGateway } from '../helpers/gateway.js';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/**
 * A small parser for the Prometheus text exposition format (version 0.0.4): `# HELP` / `# TYPE` comments,
 * and samples `name{label="value",...} number [timestamp]` with escaped \\, \" and \n in label values.
 */
function parsePrometheus(text: string): { samples: Sample[]; types: Map<string, string> } {
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    if (line.startsWith('#')) {
      const type = /^# TYPE (\S+) (\S+)$/.exec(line);
      if (type) types.set(type[1]!, type[2]!);
      continue;
    }
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{.*\})? (\S+)(?: -?\d+)?$/.exec(line);
    if (!match) throw new Error(`not a Prometheus sample line: ${JSON.stringify(line)}`);
    const labels: Record<string, string> = {};
    const body = match[2]?.slice(1, -1) ?? '';
    const pair = /\s*([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"\s*(?:,|$)/gy;
    let consumed = 0;
    for (let m = pair.exec(body); m; m = pair.exec(body)) {
      labels[m[1]!] = m[2]!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
      consumed = pair.lastIndex;
    }
    if (consumed !== body.length) throw new Error(`bad labels in ${JSON.stringify(line)}`);
    const raw = match[3]!;
    const value = raw === '+Inf' ? Infinity : raw === '-Inf' ? -Infinity : raw === 'NaN' ? NaN : Number(raw);
    if (Number.isNaN(value) && raw !== 'NaN') throw new Error(`bad value in ${JSON.stringify(line)}`);
    samples.push({ name: match[1]!, labels, value });
  }
  return { samples, types };
}

/** The value of the single sample named `name` whose labels include `labels`; undefined if none. */
function sample(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  const found = samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  if (found.length > 1) throw new Error(`${name} ${JSON.stringify(labels)} matches ${found.length} samples`);
  return found[0]?.value;
}

describe('parsePrometheus', () => {
  it('reads labels with escapes, timestamps and special values', () => {
    const { samples, types } = parsePrometheus(
      ['# HELP x_total A counter.', '# TYPE x_total counter', 'x_total{a="q\\"uote",b="back\\\\slash",c="new\\nline"} 3 1700000000000', 'y +Inf', 'z{} 0.5', ''].join('\n'),
    );
    expect(types.get('x_total')).toBe('counter');
    expect(samples).toEqual([
      { name: 'x_total', labels: { a: 'q"uote', b: 'back\\slash', c: 'new\nline' }, value: 3 },
      { name: 'y', labels: {}, value: Infinity },
      { name: 'z', labels: {}, value: 0.5 },
    ]);
    expect(() => parsePrometheus('x{a=1} 2')).toThrow(/bad labels/);
    expect(() => parsePrometheus('not a sample')).toThrow(/not a Prometheus sample line/);
  });
});

describe('metrics exposure through a running gateway', () => {
  let gateway: RunningGateway;
  let user: ConnectedClient;
  let dataDir: string;

  beforeAll(async () => {
    const config = await writeConfig({ fault: fixtureServer('fault-server.ts') }, { http: { unauthenticatedAdmin: true } }); // DELETE /api/metrics without a token (loopback)
    dataDir = dataDirFor(config)[1]!;
    gateway = await startHttpGateway(config);
    user = await connectHttp(gateway.url);
    const call = (name: string, args: Record<string, unknown> = {}) => user.client.callTool({ name: `fault_${name}`, arguments: args });
    for (let i = 0; i < 5; i++) await call('ok', { text: String(i) });
    for (let i = 0; i < 2; i++) expect((await call('tool_error')).isError).toBe(true);
    await expect(call('fail')).rejects.toThrow(/deliberate failure/);
    for (let i = 0; i < 3; i++) await call('slow', { ms: 1 });
    await expect(call('slow', {})).rejects.toThrow(/"ms" must be a number/); // protocol error from the server
  }, 60_000);

  afterAll(async () => {
    await user?.close();
    await gateway?.close();
  });

  async function api(path: string, method = 'GET'): Promise<{ status: number; body: Record<string, unknown> }> {
    const response = await fetch(`${gateway.url}${path}`, { method });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  it('/metrics counts calls by outcome, observes durations, and shows sessions and server state', async () => {
    const response = await fetch(`${gateway.url}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/plain');
    const { samples, types } = parsePrometheus(await response.text());
    expect(types.get('switchboard_tool_calls_total')).toBe('counter');
    expect(types.get('switchboard_tool_call_duration_seconds')).toBe('histogram');
    expect(types.get('switchboard_server_state')).toBe('gauge');

    const calls = 'switchboard_tool_calls_total';
    expect(sample(samples, calls, { server: 'fault', tool: 'ok', outcome: 'ok' })).toBe(5);
    expect(sample(samples, calls, { server: 'fault', tool: 'tool_error', outcome: 'tool_error' })).toBe(2);
    expect(sample(samples, calls, { server: 'fault', tool: 'fail', outcome: 'protocol_error' })).toBe(1);
    expect(sample(samples, calls, { server: 'fault', tool: 'slow', outcome: 'ok' })).toBe(3);
    expect(sample(samples, calls, { server: 'fault', tool: 'slow', outcome: 'protocol_error' })).toBe(1);
    const totalCalls = samples.filter((s) => s.name === calls).reduce((sum, s) => sum + s.value, 0);
    expect(totalCalls).toBe(12);

    const errors = 'switchboard_tool_errors_total';
    expect(sample(samples, errors, { server: 'fault', tool: 'tool_error' })).toBe(2);
    expect(sample(samples, errors, { server: 'fault', tool: 'fail' })).toBe(1);
    expect(sample(samples, errors, { server: 'fault', tool: 'slow' })).toBe(1);
    expect(sample(samples, errors, { server: 'fault', tool: 'ok' })).toBeUndefined();

    const hist = 'switchboard_tool_call_duration_seconds';
    expect(sample(samples, `${hist}_count`, { server: 'fault', tool: 'ok' })).toBe(5);
    expect(sample(samples, `${hist}_count`, { server: 'fault', tool: 'slow' })).toBe(4);
    expect(sample(samples, `${hist}_bucket`, { server: 'fault', tool: 'ok', le: '+Inf' })).toBe(5);
    expect(sample(samples, `${hist}_sum`, { server: 'fault', tool: 'ok' })).toBeGreaterThan(0);
    const okBuckets = samples.filter((s) => s.name === `${hist}_bucket` && s.labels.tool === 'ok').map((s) => s.value);
    expect(okBuckets).toEqual([...okBuckets].sort((a, b) => a - b)); // cumulative

    const open = sample(samples, 'switchboard_sessions_open');
    expect(typeof open).toBe('number');
    expect(open).toBeGreaterThanOrEqual(1);
    expect(sample(samples, 'switchboard_server_state', { server: 'fault', state: 'connected' })).toBe(1);
    const states = samples.filter((s) => s.name === 'switchboard_server_state' && s.labels.server === 'fault');
    expect(states.reduce((sum, s) => sum + s.value, 0)).toBe(1);
  });

  it('switchboard metrics --json shows the same counts and success rates from the store', async () => {
    // The gateway inserts its journaled calls into SQLite about once a second (another process reads
    // only what is inserted), so wait until all 12 calls of beforeAll are there.
    let stats: ToolStats[] = [];
    for (const deadline = Date.now() + 20_000; ; ) {
      stats = await runCliJson<ToolStats[]>(['metrics', '--json', '--server', 'fault'], dataDir);
      if (stats.reduce((sum, s) => sum + s.calls, 0) >= 12 || Date.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const byTool = Object.fromEntries(stats.map((s) => [s.tool, s]));
    expect(Object.keys(byTool).sort()).toEqual(['fail', 'ok', 'slow', 'tool_error']);
    expect(byTool.ok).toMatchObject({ calls: 5, successes: 5, failures: 0, successRate: 1 });
    expect(byTool.ok!.lastError).toBeUndefined();
    expect(byTool.tool_error).toMatchObject({ calls: 2, successes: 0, failures: 2, successRate: 0 });
    expect(byTool.tool_error!.lastError?.message).toBe('deliberate tool error');
    expect(byTool.fail).toMatchObject({ calls: 1, failures: 1, successRate: 0 });
    expect(byTool.fail!.lastError?.message).toContain('deliberate failure');
    expect(byTool.slow).toMatchObject({ calls: 4, successes: 3, failures: 1, successRate: 0.75 });
    for (const s of stats) {
      expect(s.p50Ms).toBeGreaterThanOrEqual(0);
      expect(s.p50Ms).toBeLessThanOrEqual(s.p95Ms);
      expect(s.p95Ms).toBeLessThanOrEqual(s.p99Ms);
      expect(s.lastCalledAt).toBeGreaterThan(Date.now() - 120_000);
    }
    const one = await runCliJson<ToolStats[]>(['metrics', '--json', '--server', 'fault', '--tool', 'slow'], dataDir);
    expect(one).toEqual([byTool.slow]);
  }, 60_000);

  it('GET /api/metrics gives the same statistics; DELETE resets a tool, then a server', async () => {
    const before = await runCliJson<ToolStats[]>(['metrics', '--json'], dataDir);
    const all = await api('/api/metrics');
    expect(all.status).toBe(200);
    expect(all.body.tools).toEqual(before);
    const slow = await api('/api/metrics?server=fault&tool=slow');
    expect(slow.body.tools).toEqual([before.find((s) => s.tool === 'slow')]);
    expect((await api('/api/metrics?server=other')).body.tools).toEqual([]);
    expect((await api('/api/metrics?server=&since=1h')).body.tools).toEqual(before); // empty = every server

    const bad = await api('/api/metrics?since=yesterday');
    expect(bad.status).toBe(400);
    expect(String(bad.body.error)).toContain('since must be a duration like 30m, 24h or 7d');

    const resetSlow = await api('/api/metrics?server=fault&tool=slow', 'DELETE');
    expect(resetSlow).toEqual({ status: 200, body: { reset: { server: 'fault', tool: 'slow' }, rawDeleted: 4, dailyDeleted: 0 } });
    const afterSlow = await runCliJson<ToolStats[]>(['metrics', '--json'], dataDir);
    expect(afterSlow.map((s) => s.tool).sort()).toEqual(['fail', 'ok', 'tool_error']);
    expect(afterSlow.find((s) => s.tool === 'ok')).toMatchObject({ calls: 5 });

    const resetServer = await api('/api/metrics?server=fault', 'DELETE');
    expect(resetServer.body).toEqual({ reset: { server: 'fault', tool: null }, rawDeleted: 8, dailyDeleted: 0 });
    expect(await runCliJson<ToolStats[]>(['metrics', '--json'], dataDir)).toEqual([]);
    expect((await api('/api/metrics')).body.tools).toEqual([]);

    // Prometheus counters are not reset: they only go up for the life of the process.
    const { samples } = parsePrometheus(await (await fetch(`${gateway.url}/metrics`)).text());
    expect(sample(samples, 'switchboard_tool_calls_total', { server: 'fault', tool: 'ok', outcome: 'ok' })).toBe(5);

    // New calls are recorded again after a reset.
    await user.client.callTool({ name: 'fault_ok', arguments: {} });
    expect((await api('/api/metrics?tool=ok')).body.tools).toEqual([expect.objectContaining({ server: 'fault', tool: 'ok', calls: 1 })]);
  });

  it('GET /api/changes lists the catalog audit log', async () => {
    const { status, body } = await api('/api/changes?server=fault');
    expect(status).toBe(200);
    const changes = body.changes as CatalogChange[];
    const tools = changes.filter((c) => c.kind === 'tools').map((c) => `${c.change} ${c.name}`);
    expect(tools).toEqual(expect.arrayContaining(['added ok', 'added fail', 'added slow', 'added tool_error']));
    expect(changes.every((c) => c.server === 'fault' && c.change === 'added')).toBe(true);
    expect((await api('/api/changes?since=2999-01-01')).body.changes).toEqual([]);
    expect((await api('/api/changes?limit=2')).body.changes).toHaveLength(2);
    const bad = await api('/api/changes?limit=0');
    expect(bad.status).toBe(400);
    expect(String(bad.body.error)).toContain('limit must be a whole number');
    expect(await runCliJson<CatalogChange[]>(['changes', '--json', '--server', 'fault'], dataDir)).toEqual(changes);
  });
});

describe('admin API without a store', () => {
  it('answers 404 with a clear message', async () => {
    const gateway = new Gateway();
    const { app, sessions } = createApp(gateway, { sessionIdleMs: 60_000, boundHost: '127.0.0.1', allowedHosts: [], allowedOrigins: [], unauthenticatedAdmin: true });
    try {
      for (const [method, path] of [['GET', '/api/metrics'], ['DELETE', '/api/metrics?server=x'], ['GET', '/api/changes']] as const) {
        const response = await app.request(`http://127.0.0.1${path}`, { method, headers: { host: '127.0.0.1' } });
        expect(response.status).toBe(404);
        expect(((await response.json()) as { error: string }).error).toContain('this gateway has no store');
      }
      const unknown = await app.request('http://127.0.0.1/api/nothing', { headers: { host: '127.0.0.1' } });
      expect(((await unknown.json()) as { error: string }).error).toContain('/api/metrics, /api/metrics/series, /api/calls, /api/activity, /api/changes');
    } finally {
      await sessions.close();
      await gateway.close();
    }
  });
});
