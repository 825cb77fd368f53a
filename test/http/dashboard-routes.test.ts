// The dashboard's files and admin routes over real HTTP against the real gateway (a real npm server
// behind it, a real store): /ui/ with its content types, caching and security headers, served without a
// token while the API behind it needs one; GET /api/tools; the toolset routes; GET /api/metrics/series.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { npmServer, startHttpGateway, waitFor, writeConfig, type RunningGateway } from '../helpers/gateway.js';
import { hashToken, newToken } from '../../src/http/tokens.js';

/** A GET with the path exactly as given (fetch would resolve `..` first). */
function rawGet(base: string, path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const request = http.get({ hostname, port, path, headers }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    request.on('error', reject);
  });
}

const ADMIN = newToken();
const READER = newToken();

describe('dashboard routes', () => {
  let gateway: RunningGateway;
  let client: Client;
  const admin = (path: string, init: RequestInit = {}) =>
    fetch(`${gateway.url}${path}`, { ...init, headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json', ...init.headers } });
  const json = async <T>(response: Response): Promise<T> => (await response.json()) as T;

  beforeAll(async () => {
    const config = await writeConfig(
      { everything: npmServer('everything') },
      { clients: [{ name: 'ops', tokenHash: hashToken(ADMIN), admin: true }, { name: 'reader', tokenHash: hashToken(READER) }] },
    );
    gateway = await startHttpGateway(config);
    client = new Client({ name: 'dashboard-routes', version: '1.0.0' }, { capabilities: {} });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${gateway.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${ADMIN}` } } }));
    await client.callTool({ name: 'everything_echo', arguments: { message: 'one' } });
    await client.callTool({ name: 'everything_echo', arguments: { message: 'two' } });
    await client.callTool({ name: 'everything_get-sum', arguments: { a: 'x' } });
    await waitFor(async () => {
      const stats = await json<{ tools: Array<{ tool: string; calls: number }> }>(await admin('/api/metrics'));
      return stats.tools.find((t) => t.tool === 'echo')?.calls === 2 && stats.tools.some((t) => t.tool === 'get-sum');
    }, 'the calls to be stored', 30_000);
  });

  afterAll(async () => {
    await client?.close();
    await gateway?.close();
  });

  it('serves the dashboard at /ui/ without a token, with content types, caching and security headers', async () => {
    const root = await fetch(`${gateway.url}/`, { redirect: 'manual' });
    expect(root.status).toBe(302);
    expect(root.headers.get('location')).toBe('/ui/');
    const bare = await fetch(`${gateway.url}/ui`, { redirect: 'manual' });
    expect(bare.status).toBe(301);
    expect(bare.headers.get('location')).toBe('/ui/');

    const page = await fetch(`${gateway.url}/ui/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('cache-control')).toBe('no-cache');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    const html = await page.text();
    const script = /src="(\/ui\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    const style = /href="(\/ui\/assets\/[^"]+\.css)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    expect(style).toBeDefined();
    expect(html).not.toMatch(/https?:\/\//); // nothing from a CDN: works offline

    const js = await fetch(`${gateway.url}${script}`);
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(js.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(js.headers.get('x-content-type-options')).toBe('nosniff');
    expect((await js.text()).length).toBeGreaterThan(1000);
    const css = await fetch(`${gateway.url}${style}`);
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');

    // Names that are not built files, and raw traversal attempts (sent as-is, not normalized by a URL parser).
    for (const path of ['/ui/missing.js', '/ui/.hidden', '/ui/../package.json', '/ui/%2e%2e/%2e%2e/package.json', '/ui/assets/..%2f..%2fpackage.json', '/ui/assets/%2e%2e%2f%2e%2e%2fpackage.json']) {
      const { status, body } = await rawGet(gateway.url, path);
      // 404, or 401 where the server resolved `..` before routing (then it is no dashboard path and needs a token).
      expect([401, 404], path).toContain(status);
      expect(body, path).not.toContain('"devDependencies"');
    }
    // The Host guard covers the dashboard like every route (DNS rebinding).
    const forged = await rawGet(gateway.url, '/ui/', { host: 'evil.example' });
    expect(forged.status).toBe(403);
    const foreignOrigin = await fetch(`${gateway.url}/ui/`, { headers: { origin: 'https://evil.example' } });
    expect(foreignOrigin.status).toBe(403);
  });

  it('keeps the API behind the dashboard under the tokens: 401 without one, 403 for a non-admin client', async () => {
    const none = await fetch(`${gateway.url}/api/tools`);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toContain('Bearer');
    const reader = await fetch(`${gateway.url}/api/toolsets`, { headers: { authorization: `Bearer ${READER}` } });
    expect(reader.status).toBe(403);
    expect(((await reader.json()) as { error: string }).error).toContain('not an admin client');
    const post = await fetch(`${gateway.url}/ui/`, { method: 'POST' });
    expect(post.status).toBe(401);
  });

  it('GET /api/tools: names, tokens, schema, descriptions and call statistics with a latency series', async () => {
    const { tools, pending, stored } = await json<{ tools: Array<Record<string, any>>; pending: string[]; stored: boolean }>(await admin('/api/tools'));
    expect(stored).toBe(true);
    expect(pending).toEqual([]);
    const echo = tools.find((t) => t.name === 'echo')!;
    expect(echo).toMatchObject({ server: 'everything', exposed: 'everything_echo', enabled: true, promoted: false });
    expect(echo.description).toBe(echo.canonicalDescription);
    expect(echo.tokens).toBeGreaterThan(10);
    expect(echo.inputSchema.properties.message.type).toBe('string');
    expect(echo.stats).toMatchObject({ calls: 2, failures: 0, successRate: 1, lastError: null });
    expect(echo.stats.latencies).toHaveLength(2);
    expect(echo.stats.p95Ms).toBeGreaterThanOrEqual(echo.stats.p50Ms);
    const sum = tools.find((t) => t.name === 'get-sum')!;
    expect(sum.stats.failures).toBe(1);
    expect(sum.stats.lastError.message).toContain('-32602');
    const never = tools.find((t) => t.name === 'get-env')!;
    expect(never.stats).toMatchObject({ calls: 0, successRate: null, p50Ms: null, latencies: [] });
  });

  it('toolsets: create (checked against the catalog), list with the fixed endpoint, equip, unequip, delete', async () => {
    const bad = await admin('/api/toolsets', { method: 'POST', body: JSON.stringify({ name: 'x y', tools: [] }) });
    expect(bad.status).toBe(400);
    expect((await json<{ error: string }>(bad)).error).toMatch(/name: must be 1 to 64 characters[\s\S]*tools/);
    const typo = await admin('/api/toolsets', { method: 'POST', body: JSON.stringify({ name: 'daily', tools: [{ server: 'everything', tool: 'ecko' }] }) });
    expect(typo.status).toBe(400);
    const typoBody = await json<{ error: string; suggestions: string[] }>(typo);
    expect(typoBody.error).toContain('ecko');
    expect(typoBody.suggestions).toContain('everything.echo');

    const created = await admin('/api/toolsets', { method: 'POST', body: JSON.stringify({ name: 'daily', description: 'echo and sums', tools: [{ server: 'everything', tool: 'echo' }, { namespacedName: 'everything.get-sum' }] }) });
    expect(created.status).toBe(201);
    expect((await json<{ toolset: Record<string, unknown> }>(created)).toolset).toMatchObject({ name: 'daily', endpoint: '/toolsets/daily/mcp', equipped: false, missing: [] });

    const listed = await json<{ equipped: string | null; toolsets: Array<Record<string, unknown>> }>(await admin('/api/toolsets'));
    expect(listed.equipped).toBeNull();
    expect(listed.toolsets).toEqual([expect.objectContaining({ name: 'daily', description: 'echo and sums', tools: [{ server: 'everything', tool: 'echo' }, { server: 'everything', tool: 'get-sum' }] })]);

    expect((await admin('/api/toolsets/nope/equip', { method: 'POST' })).status).toBe(404);
    const equipped = await admin('/api/toolsets/daily/equip', { method: 'POST' });
    expect(await json(equipped)).toEqual({ equipped: 'daily' });
    expect((await json<{ equipped: string }>(await admin('/api/toolsets'))).equipped).toBe('daily');

    // The fixed endpoint serves exactly the toolset.
    const fixed = new Client({ name: 'fixed', version: '1.0.0' }, { capabilities: {} });
    await fixed.connect(new StreamableHTTPClientTransport(new URL(`${gateway.url}/toolsets/daily/mcp`), { requestInit: { headers: { authorization: `Bearer ${ADMIN}` } } }));
    expect((await fixed.listTools()).tools.map((t) => t.name).sort()).toEqual(['everything_echo', 'everything_get-sum']);
    await fixed.close();

    const unequipped = await admin('/api/toolsets/daily/unequip', { method: 'POST' });
    expect(await json(unequipped)).toEqual({ equipped: null, unequipped: 'daily' });
    expect((await admin('/api/toolsets/daily/unequip', { method: 'POST' })).status).toBe(409);
    expect(await json(await admin('/api/toolsets/daily', { method: 'DELETE' }))).toEqual({ deleted: 'daily' });
    expect((await json<{ toolsets: unknown[] }>(await admin('/api/toolsets'))).toolsets).toEqual([]);
  });

  it('GET /api/metrics/series: calls, errors and latency per bucket, per server or per tool', async () => {
    const byServer = await json<{ bucketMs: number; groupBy: string; series: Array<{ server: string; tool?: string; points: Array<{ t: number; calls: number; errors: number; p50Ms: number; p95Ms: number }> }> }>(
      await admin('/api/metrics/series?since=1h&bucket=1m'),
    );
    expect(byServer.bucketMs).toBe(60_000);
    expect(byServer.groupBy).toBe('server');
    expect(byServer.series.map((s) => s.server)).toEqual(['everything']);
    const points = byServer.series[0]!.points;
    expect(points.reduce((n, p) => n + p.calls, 0)).toBe(3);
    expect(points.reduce((n, p) => n + p.errors, 0)).toBe(1);
    for (const p of points) {
      expect(p.t % 60_000).toBe(0);
      expect(p.p95Ms).toBeGreaterThanOrEqual(p.p50Ms);
    }

    const byTool = await json<{ series: Array<{ server: string; tool?: string; points: Array<{ calls: number }> }> }>(await admin('/api/metrics/series?since=1h&groupBy=tool&server=everything'));
    const echo = byTool.series.find((s) => s.tool === 'echo')!;
    expect(echo.points.reduce((n, p) => n + p.calls, 0)).toBe(2);
    const only = await json<{ series: Array<{ tool?: string }> }>(await admin('/api/metrics/series?groupBy=tool&tool=get-sum'));
    expect(only.series.map((s) => s.tool)).toEqual(['get-sum']);

    const badBucket = await admin('/api/metrics/series?bucket=7x');
    expect(badBucket.status).toBe(400);
    expect((await json<{ error: string }>(badBucket)).error).toContain('bucket: must be a duration like 30s');
    const tooMany = await admin('/api/metrics/series?since=7d&bucket=1s');
    expect(tooMany.status).toBe(400);
    expect((await json<{ error: string }>(tooMany)).error).toContain('at most 2000');
    const badSince = await admin('/api/metrics/series?since=yesterday');
    expect(badSince.status).toBe(400);
    const unknown = await admin('/api/metrics/series?colour=red');
    expect(unknown.status).toBe(400);
  });

  it('GET /api/tools lists a tool hidden by a tool selection, marked disabled and without an exposed name', async () => {
    const put = await admin('/api/servers/everything/tools', { method: 'PUT', body: JSON.stringify({ disabledTools: ['get-env'] }) });
    expect(put.status).toBe(200);
    const hidden = await waitFor(async () => {
      const { tools } = await json<{ tools: Array<Record<string, any>> }>(await admin('/api/tools'));
      const env = tools.find((t) => t.name === 'get-env');
      return env && env.enabled === false && tools.some((t) => t.name === 'echo' && t.enabled) ? env : undefined;
    }, 'get-env listed as hidden', 30_000);
    expect(hidden).toMatchObject({ server: 'everything', exposed: null, enabled: false });
    expect(hidden.inputSchema).toBeTruthy();
  });
});
