// Owns the Hono app of the HTTP face: the MCP endpoints (all servers at /mcp, one server at
// /servers/{key}/mcp and /s/{key}/mcp), /healthz, and the Host/Origin guard in front of them.
import { Hono } from 'hono';
import { BARE_PROFILE } from '../servers/profile.js';
import { summaryOf, tokenReport } from '../views/budget.js';
import { searchArguments } from '../gateway/management.js';
import { NoEmbeddingProvider } from '../gateway/tool-search.js';
import { EmbeddingError } from '../search/semantic/provider.js';
import { z } from 'zod';
import type { Gateway } from '../gateway/gateway.js';
import { MANAGEMENT, viewForMode, type Mode, type View } from '../gateway/view.js';
import { originGuard, type GuardOptions } from './guard.js';
import { HttpSessions } from './sessions.js';
import { nodeExchange } from './node-exchange.js';
import { authGuard, type AuthVariables } from './auth.js';
import { ClientRegistry, type AuthenticatedClient } from './clients.js';
import { isLoopbackHost } from './loopback.js';
import type { LimitSettings } from '../config/index.js';
import { DEFAULT_LIMITS } from '../gateway/input-limits.js';
import { changesFor } from '../store/catalog-changes.js';
import { parseLimit, parseSince, QueryBoundError } from '../store/query-bounds.js';
import { optimizationEventStream } from './optimize-events.js';
import { registerPinRoutes } from './pin-routes.js';
import { registerActivityRoute } from './activity-route.js';
import type { InboundEraSetting } from '../gateway/era.js';
import { registerToolsRoute } from './tools-route.js';
import { registerToolsetRoutes } from './toolset-routes.js';
import { registerMetricsSeriesRoute } from './metrics-series-route.js';
import { registerDashboardRoute } from './dashboard-route.js';
import { registerServerRoutes } from './server-routes.js';
import { registerOptimizeRoutes } from './optimize-routes.js';

const MODES: readonly Mode[] = ['passthrough', 'toolset', 'meta', 'auto'];
const embedRequest = z.strictObject({ force: z.boolean().optional() });

export interface AppOptions extends GuardOptions {
  sessionIdleMs: number;
  /** What /mcp serves (default passthrough). */
  mode?: Mode;
  /** Configured clients (default none: no tokens, loopback only). */
  clients?: ClientRegistry;
  /** Loopback binds without clients: state-changing admin routes need no token. */
  unauthenticatedAdmin?: boolean;
  limits?: LimitSettings;
  /** /mcp serves exactly this saved toolset, whatever is equipped (overrides mode). */
  toolset?: string;
  /** Serve 2026-07-28 requests next to 2025 sessions (auto, the default) or 2025 sessions only. */
  inboundEra?: InboundEraSetting;
  /** The config file the admin API writes added servers and persisted tool selections into. */
  configFile?: string;
}

export function createApp(gateway: Gateway, options: AppOptions): { app: Hono<{ Variables: AuthVariables }>; sessions: HttpSessions } {
  const limits = options.limits ?? DEFAULT_LIMITS;
  const sessions = new HttpSessions(gateway, options.sessionIdleMs, limits, options.inboundEra);
  const app = new Hono<{ Variables: AuthVariables }>();
  app.use('*', originGuard(options));
  app.use('*', authGuard({ clients: options.clients ?? new ClientRegistry([]), unauthenticatedAdmin: options.unauthenticatedAdmin ?? false, loopback: isLoopbackHost(options.boundHost), requestsPerMinute: limits.requestsPerMinute }));

  app.get('/healthz', (c) =>
    c.json({
      status: 'ok',
      sessions: sessions.size,
      servers: gateway.serverStatus().map(({ key, connections }) => ({ key, states: connections.map((c) => c.state) })),
    }),
  );

  // Readiness (liveness stays /healthz): 503 naming every server that failed, 200 when none did.
  app.get('/readyz', (c) => {
    const down = gateway.downServers();
    return c.json({ status: down.length ? 'degraded' : 'ready', servers: gateway.pool.keys().length, down }, down.length ? 503 : 200);
  });

  app.get('/api/servers', (c) => c.json({ servers: gateway.serverStatus(), sessions: sessions.size }));

  // Search over every tool: {"query", "top_k"?, "min_score"?, "server"?, "category"?, "mode"?} -> {tools: [...], mode, note?}, best first.
  app.post('/api/tools/search', async (c) => {
    const parsed = searchArguments.safeParse(await c.req.json().catch(() => undefined));
    if (!parsed.success) return c.json({ error: `Expected {"query": string, "top_k"?: 1-100, "min_score"?: number, "server"?: string, "category"?: string, "mode"?: "lexical"|"semantic"|"hybrid"}: ${issuesOf(parsed.error)}` }, 400);
    const catalog = gateway.catalogFor(BARE_PROFILE);
    await catalog.ensure();
    const { query, top_k, min_score, server, category, mode } = parsed.data;
    return c.json({ query, ...(await gateway.ranking.searchTools(catalog, query, { topK: top_k ?? 10, minScore: min_score, server, category, mode })) });
  });

  // Embed every tool now: {"force"?: boolean} (force re-embeds even tools whose text did not change).
  app.post('/api/tools/embed', async (c) => {
    const body = await c.req.text();
    const parsed = embedRequest.safeParse(body.trim() ? safeJson(body) : {});
    if (!parsed.success) return c.json({ error: `Expected {"force"?: boolean}: ${issuesOf(parsed.error)}` }, 400);
    const catalog = gateway.catalogFor(BARE_PROFILE);
    await catalog.ensure();
    try {
      return c.json(await gateway.search.embed(catalog, { force: parsed.data.force ?? false }));
    } catch (error) {
      if (error instanceof NoEmbeddingProvider) return c.json({ error: error.message }, 409);
      if (error instanceof EmbeddingError) return c.json({ error: error.message, code: error.code }, 502);
      throw error;
    }
  });

  // Tokens of the tools/list result per mode (passthrough, meta), for clients without capabilities.
  app.get('/api/tokens', async (c) => {
    const catalog = gateway.catalogFor(BARE_PROFILE);
    await catalog.ensure();
    const entries = catalog.toolTable.entries();
    const { servers } = summaryOf(entries.map((e) => ({ server: e.serverKey })), gateway.pool.keys());
    const report = tokenReport(catalog.tools(), servers, gateway.meta.keepTools);
    return c.json({ ...report, tokenBudget: gateway.meta.tokenBudget, maxTools: gateway.meta.maxTools });
  });

  registerServerRoutes(app, gateway, options.configFile);

  // Admin API over the store (docs/metrics.md): per-tool call statistics, their reset, the catalog audit log.
  const noStore = { error: 'this gateway has no store, so it keeps no call metrics or catalog changes (switchboard serve opens <data-dir>/switchboard.db)' };
  /** A query parameter, with an empty value counted as absent (`?server=` means every server). */
  const query = (value: string | undefined) => (value === undefined || value === '' ? undefined : value);
  /** The body of a 400 for a bad query parameter (parseSince and parseLimit throw QueryBoundError). */
  const badRequest = (error: unknown) => ({ error: (error as Error).message });

  app.get('/api/metrics', (c) => {
    if (!gateway.store) return c.json(noStore, 404);
    try {
      const since = query(c.req.query('since'));
      const stats = gateway.store.metrics.toolStats({
        server: query(c.req.query('server')),
        tool: query(c.req.query('tool')),
        since: since === undefined ? undefined : parseSince(since, 'since'),
        scope: gateway.pool.identities(), // this gateway's servers at their current identity
      });
      return c.json({ tools: stats });
    } catch (error) {
      if (error instanceof QueryBoundError) return c.json(badRequest(error), 400);
      throw error;
    }
  });

  app.delete('/api/metrics', (c) => {
    if (!gateway.store) return c.json(noStore, 404);
    const server = query(c.req.query('server'));
    const tool = query(c.req.query('tool'));
    const { rawDeleted, dailyDeleted } = gateway.calls.reset({ server, tool, scope: gateway.pool.identities() });
    return c.json({ reset: { server: server ?? null, tool: tool ?? null }, rawDeleted, dailyDeleted });
  });

  // Recorded calls, newest first; ?correlationId= gives every call of one correlation (docs/logging.md).
  app.get('/api/calls', (c) => {
    if (!gateway.store) return c.json(noStore, 404);
    try {
      const calls = gateway.store.metrics.recentCalls({
        server: query(c.req.query('server')),
        tool: query(c.req.query('tool')),
        session: query(c.req.query('session')),
        correlationId: query(c.req.query('correlationId')),
        limit: parseLimit(query(c.req.query('limit')), 'limit'),
      });
      return c.json({ calls });
    } catch (error) {
      if (error instanceof QueryBoundError) return c.json(badRequest(error), 400);
      throw error;
    }
  });

  app.get('/api/changes', (c) => {
    if (!gateway.store) return c.json(noStore, 404);
    try {
      const since = query(c.req.query('since'));
      const changes = changesFor(gateway.store.catalog, {
        server: query(c.req.query('server')),
        since: since === undefined ? undefined : parseSince(since, 'since'),
        limit: parseLimit(query(c.req.query('limit')), 'limit'),
      });
      return c.json({ changes });
    } catch (error) {
      if (error instanceof QueryBoundError) return c.json(badRequest(error), 400);
      throw error;
    }
  });

  // Description optimization progress and decisions as server-sent events (docs/optimization.md).
  app.get('/api/optimize/events', (c) => {
    const events = gateway.optimization?.optimizer.events;
    if (!events) return c.json({ error: 'optimization is not enabled in this gateway: serve with --enable-optimization' }, 404);
    return optimizationEventStream(events, c.req.raw.signal);
  });
  registerOptimizeRoutes(app, gateway);

  registerPinRoutes(app, gateway);
  // The dashboard (docs/dashboard.md): its files at /ui/, and the admin routes it reads beyond the ones above.
  registerToolsRoute(app, gateway);
  registerToolsetRoutes(app, gateway);
  registerMetricsSeriesRoute(app, gateway);
  registerDashboardRoute(app);
  // Live activity (calls, server requests, correlation ids) as server-sent events (docs/logging.md).
  registerActivityRoute(app, gateway.activity);

  app.get('/metrics', async (c) => {
    if (!gateway.metrics) return c.text('metrics are not enabled in this gateway\n', 404);
    return c.body(await gateway.metrics.render(), 200, { 'content-type': gateway.metrics.contentType });
  });

  const mainView: View = options.toolset ? { kind: 'fixed-toolset', name: options.toolset } : viewForMode(options.mode ?? 'passthrough');
  /** A client's own mode or toolset (switchboard.clients[].mode / toolset) replaces the gateway's on /mcp. */
  const viewFor = (client: AuthenticatedClient | undefined): View =>
    client?.settings.toolset ? { kind: 'fixed-toolset', name: client.settings.toolset } : client?.settings.mode ? viewForMode(client.settings.mode) : mainView;
  // `/mcp?toolset=NAME` and `/mcp?mode=meta` pick a view by URL (shims, and clients without sessions).
  app.all('/mcp', (c) => {
    const client = c.get('client');
    const toolset = c.req.query('toolset');
    const mode = c.req.query('mode');
    if (toolset === undefined && mode === undefined) return sessions.handle(c.req.raw, '/mcp', viewFor(client), client, nodeExchange(c.env));
    if (client?.settings.toolset || client?.settings.mode) {
      return c.json({ jsonrpc: '2.0', error: { code: -32000, message: `Forbidden: client "${client.name}" is configured with its own ${client.settings.toolset ? 'toolset' : 'mode'}; ?toolset= and ?mode= are not for it.` }, id: null }, 403);
    }
    if (toolset !== undefined && mode !== undefined) return c.json({ jsonrpc: '2.0', error: { code: -32600, message: 'Use ?toolset= or ?mode=, not both.' }, id: null }, 400);
    if (toolset !== undefined) {
      if (!gateway.toolsets?.get(toolset)) {
        const known = gateway.toolsets?.list().map((t) => t.name).join(', ') || 'none';
        return c.json({ jsonrpc: '2.0', error: { code: -32001, message: `Unknown toolset "${toolset}". Saved toolsets: ${known}.` }, id: null }, 404);
      }
      return sessions.handle(c.req.raw, '/mcp', { kind: 'fixed-toolset', name: toolset }, client, nodeExchange(c.env));
    }
    if (!MODES.includes(mode as Mode)) return c.json({ jsonrpc: '2.0', error: { code: -32600, message: `?mode= must be one of ${MODES.join(', ')} (got "${mode}").` }, id: null }, 400);
    return sessions.handle(c.req.raw, '/mcp', viewForMode(mode as Mode), client, nodeExchange(c.env));
  });
  app.all('/toolsets/:name/mcp', (c) => {
    const name = c.req.param('name');
    if (!gateway.toolsets?.get(name)) {
      const known = gateway.toolsets?.list().map((t) => t.name).join(', ') || 'none';
      return c.json({ jsonrpc: '2.0', error: { code: -32001, message: `Unknown toolset "${name}". Saved toolsets: ${known}.` }, id: null }, 404);
    }
    return sessions.handle(c.req.raw, `/toolsets/${name}/mcp`, { kind: 'fixed-toolset', name }, c.get('client'), nodeExchange(c.env));
  });
  /** The management tools read every server's metrics: scoped clients are kept out. */
  const management = (c: { get(key: 'client'): AuthenticatedClient | undefined; req: { raw: Request }; env: unknown }) => {
    const client = c.get('client');
    if (client && !client.scope.unrestricted) {
      return Response.json({ jsonrpc: '2.0', error: { code: -32000, message: client.scope.refusal('the management endpoint') }, id: null }, { status: 403 });
    }
    return sessions.handle(c.req.raw, '/gateway/mcp', MANAGEMENT, client, nodeExchange(c.env));
  };
  app.all('/gateway/mcp', (c) => management(c));
  app.all('/g/mcp', (c) => management(c));

  const perServer = (prefix: string) =>
    app.all(`${prefix}/:key/mcp`, (c) => {
      const key = c.req.param('key');
      if (!gateway.pool.has(key)) {
        const known = gateway.pool.keys().join(', ') || 'none';
        return c.json({ jsonrpc: '2.0', error: { code: -32001, message: `Unknown server "${key}". Configured servers: ${known}.` }, id: null }, 404);
      }
      const client = c.get('client');
      if (client && !client.scope.allowsServer(key)) {
        return c.json({ jsonrpc: '2.0', error: { code: -32000, message: `Forbidden: ${client.scope.refusal(`server "${key}"`)}` }, id: null }, 403);
      }
      return sessions.handle(c.req.raw, `/servers/${key}/mcp`, { kind: 'server', server: key }, client, nodeExchange(c.env));
    });
  perServer('/servers');
  perServer('/s');

  app.notFound((c) => c.json({ error: `Not found: ${c.req.path}. MCP endpoints: /mcp, /servers/{key}/mcp, /s/{key}/mcp, /toolsets/{name}/mcp, /gateway/mcp; health: /healthz, /readyz; dashboard: /ui/; admin: /api/servers, /api/tools, /api/optimize, /api/toolsets, /api/metrics, /api/metrics/series, /api/calls, /api/activity, /api/changes, /api/pins; Prometheus: /metrics.` }, 404));
  return { app, sessions };
}

function issuesOf(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ');
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
