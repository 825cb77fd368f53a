// Owns the Hono app of the HTTP face: the MCP endpoints (all servers at /mcp, one server at
// /servers/{key}/mcp and /s/{key}/mcp), /healthz, and the Host/Origin guard in front of them.
import { Hono } from 'hono';
import type { Gateway } from '../gateway/gateway.js';
import { ALL, MANAGEMENT } from '../gateway/view.js';
import { originGuard, type GuardOptions } from './guard.js';
import { HttpSessions } from './sessions.js';

export interface AppOptions extends GuardOptions {
  sessionIdleMs: number;
}

export function createApp(gateway: Gateway, options: AppOptions): { app: Hono; sessions: HttpSessions } {
  const sessions = new HttpSessions(gateway, options.sessionIdleMs);
  const app = new Hono();
  app.use('*', originGuard(options));

  app.get('/healthz', (c) =>
    c.json({
      status: 'ok',
      sessions: sessions.size,
      servers: gateway.serverStatus().map(({ key, connections }) => ({ key, states: connections.map((c) => c.state) })),
    }),
  );

  app.get('/api/servers', (c) => c.json({ servers: gateway.serverStatus(), sessions: sessions.size }));

  app.get('/metrics', async (c) => {
    if (!gateway.metrics) return c.text('metrics are not enabled in this gateway\n', 404);
    return c.body(await gateway.metrics.render(), 200, { 'content-type': gateway.metrics.contentType });
  });

  app.all('/mcp', (c) => sessions.handle(c.req.raw, '/mcp', ALL));
  app.all('/gateway/mcp', (c) => sessions.handle(c.req.raw, '/gateway/mcp', MANAGEMENT));
  app.all('/g/mcp', (c) => sessions.handle(c.req.raw, '/gateway/mcp', MANAGEMENT));

  const perServer = (prefix: string) =>
    app.all(`${prefix}/:key/mcp`, (c) => {
      const key = c.req.param('key');
      if (!gateway.pool.has(key)) {
        const known = gateway.pool.keys().join(', ') || 'none';
        return c.json({ jsonrpc: '2.0', error: { code: -32001, message: `Unknown server "${key}". Configured servers: ${known}.` }, id: null }, 404);
      }
      return sessions.handle(c.req.raw, `/servers/${key}/mcp`, { kind: 'server', server: key });
    });
  perServer('/servers');
  perServer('/s');

  app.notFound((c) => c.json({ error: `Not found: ${c.req.path}. MCP endpoints: /mcp, /servers/{key}/mcp, /s/{key}/mcp, /gateway/mcp; health: /healthz; admin: /api/servers; Prometheus: /metrics.` }, 404));
  return { app, sessions };
}
