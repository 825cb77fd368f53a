// Owns the admin API of description optimization (docs/http.md#optimization): the per-server, per-tool state
// (GET /api/optimize), runs started inside this gateway (POST /api/optimize/runs, GET and DELETE
// /api/optimize/runs/current; progress on GET /api/optimize/events), revert, golden prompts with pass/fail, and
// the exported report. Everything here needs optimization enabled (serve --enable-optimization).
import type { Context, Hono } from 'hono';
import { z } from 'zod';
import type { Gateway } from '../gateway/gateway.js';
import type { OptimizationToolHost } from '../optimize/mcp-tools.js';
import { promptSchema, savePrompts } from '../optimize/mcp-tools.js';
import { OptimizationRuns, RunConflict } from '../optimize/server-run.js';
import { buildReport, reportMarkdown } from '../optimize/report.js';
import { optimizationState, promptsWithResults } from '../optimize/state.js';
import type { AuthVariables } from './auth.js';

/** The auto-promote threshold when a run does not give one: 85 % overall success (on top of the rule). */
export const DEFAULT_AUTO_PROMOTE_THRESHOLD = 0.85;

const name = z.string().min(1).max(256);
const runRequest = z.strictObject({
  servers: z.array(name).min(1).max(200).optional(),
  tools: z.array(name).min(1).max(1000).optional(),
  candidates: z.int().min(1).max(20).optional(),
  promptsPerCategory: z.int().min(1).max(100).optional(),
  backend: name.optional(),
  repeats: z.int().min(1).max(20).optional(),
  /** A minimum overall success rate (0-1) for auto-promotion; null: never promote automatically. */
  autoPromoteThreshold: z.number().min(0).max(1).nullable().optional(),
});
const revertRequest = z.strictObject({ server: name, tool: name.optional() });
const promptsRequest = z.strictObject({ server: name, prompts: z.array(promptSchema).min(1).max(500) });

const runsByHost = new WeakMap<OptimizationToolHost, OptimizationRuns>();
function runsOf(host: OptimizationToolHost): OptimizationRuns {
  let runs = runsByHost.get(host);
  if (!runs) runsByHost.set(host, (runs = new OptimizationRuns(host)));
  return runs;
}

const issues = (error: z.ZodError) => error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ');

export function registerOptimizeRoutes(app: Hono<{ Variables: AuthVariables }>, gateway: Gateway): void {
  const disabled = { error: 'optimization is not enabled in this gateway: serve with --enable-optimization (or "optimization": {"enabled": true})' };
  const unknownServer = (key: string) => ({ error: `Unknown server "${key}". Configured: ${gateway.pool.keys().join(', ') || 'none'}.` });
  /** The host, or the 404 to answer. */
  const withHost = (c: Context<{ Variables: AuthVariables }>, then: (host: OptimizationToolHost) => Response | Promise<Response>) => {
    const host = gateway.optimization;
    return host ? then(host) : c.json(disabled, 404);
  };

  app.get('/api/optimize', (c) =>
    withHost(c, (host) => {
      const server = c.req.query('server') || undefined;
      if (server !== undefined && !gateway.pool.has(server)) return c.json(unknownServer(server), 404);
      const servers = server === undefined ? gateway.pool.keys() : [server];
      const selection = (key: string) => {
        const config = gateway.pool.config(key);
        return { enabledTools: config?.enabledTools, disabledTools: config?.disabledTools };
      };
      return c.json({
        servers: optimizationState(host.optimizer, servers, selection),
        run: runsOf(host).status() ?? null,
        defaults: { candidates: host.defaults?.candidates ?? 4, repeats: host.defaults?.repeats ?? 3, backend: 'retrieval', autoPromoteThreshold: DEFAULT_AUTO_PROMOTE_THRESHOLD },
        backends: host.defaults?.backends ?? ['retrieval'],
      });
    }),
  );

  app.post('/api/optimize/runs', async (c) =>
    withHost(c, async (host) => {
      const parsed = runRequest.safeParse(await c.req.json().catch(() => undefined));
      if (!parsed.success) return c.json({ error: `Expected {"servers"?: string[], "tools"?: string[], "candidates"?: 1-20, "promptsPerCategory"?: 1-100, "backend"?: string, "repeats"?: 1-20, "autoPromoteThreshold"?: 0-1 | null}: ${issues(parsed.error)}` }, 400);
      const body = parsed.data;
      const servers = body.servers ?? gateway.pool.keys();
      const missing = servers.find((s) => !gateway.pool.has(s));
      if (missing !== undefined) return c.json(unknownServer(missing), 404);
      if (body.tools && servers.length !== 1) return c.json({ error: '"tools" needs exactly one server in "servers"' }, 400);
      const backends = host.defaults?.backends ?? ['retrieval'];
      const backend = body.backend ?? 'retrieval';
      if (!backends.includes(backend)) return c.json({ error: `Unknown backend "${backend}". Usable here: ${backends.join(', ')} (configure others under "optimization": {"backends": [...]}).` }, 400);
      try {
        const threshold = body.autoPromoteThreshold === undefined ? DEFAULT_AUTO_PROMOTE_THRESHOLD : (body.autoPromoteThreshold ?? undefined);
        const { progress } = runsOf(host).start({
          servers,
          ...(body.tools && { tools: body.tools }),
          candidates: body.candidates ?? host.defaults?.candidates ?? 4,
          ...(body.promptsPerCategory !== undefined && { promptsPerCategory: body.promptsPerCategory }),
          backend,
          repeats: body.repeats ?? host.defaults?.repeats ?? 3,
          ...(threshold !== undefined && { autoPromoteThreshold: threshold }),
        });
        return c.json({ run: progress }, 202);
      } catch (error) {
        if (error instanceof RunConflict) return c.json({ error: error.message, run: error.running }, 409);
        throw error;
      }
    }),
  );

  app.get('/api/optimize/runs/current', (c) => withHost(c, (host) => c.json({ run: runsOf(host).status() ?? null })));

  app.delete('/api/optimize/runs/current', (c) =>
    withHost(c, (host) => {
      const runs = runsOf(host);
      const running = runs.status();
      if (!runs.cancel() || !running) return c.json({ error: 'no optimization run is going' }, 404);
      return c.json({ cancelling: running.id });
    }),
  );

  app.post('/api/optimize/revert', async (c) =>
    withHost(c, async (host) => {
      const parsed = revertRequest.safeParse(await c.req.json().catch(() => undefined));
      if (!parsed.success) return c.json({ error: `Expected {"server": string, "tool"?: string}: ${issues(parsed.error)}` }, 400);
      const { server, tool } = parsed.data;
      if (!gateway.pool.has(server)) return c.json(unknownServer(server), 404);
      return c.json({ server, reverted: host.optimizer.revert(server, tool === undefined ? undefined : [tool]) });
    }),
  );

  app.get('/api/optimize/prompts', (c) =>
    withHost(c, (host) => {
      const server = c.req.query('server');
      const tool = c.req.query('tool') || undefined;
      if (!server) return c.json({ error: 'Expected ?server=<key>[&tool=<name>]' }, 400);
      if (!gateway.pool.has(server)) return c.json(unknownServer(server), 404);
      return c.json({ server, ...(tool && { tool }), tools: promptsWithResults(host.optimizer, server, tool) });
    }),
  );

  app.post('/api/optimize/prompts', async (c) =>
    withHost(c, async (host) => {
      const parsed = promptsRequest.safeParse(await c.req.json().catch(() => undefined));
      if (!parsed.success) return c.json({ error: `Expected {"server": string, "prompts": [{tool, category: direct|indirect|negative, prompt, expectedBehavior?, split?}]}: ${issues(parsed.error)}` }, 400);
      if (!gateway.pool.has(parsed.data.server)) return c.json(unknownServer(parsed.data.server), 404);
      const saved = savePrompts(host, parsed.data.server, parsed.data.prompts, 'api');
      return c.json({ saved: saved.length, ids: saved.map((p) => p.id) }, 201);
    }),
  );

  app.get('/api/optimize/report', (c) =>
    withHost(c, (host) => {
      const server = c.req.query('server') || undefined;
      if (server !== undefined && !gateway.pool.has(server)) return c.json(unknownServer(server), 404);
      const format = c.req.query('format') ?? 'md';
      if (format !== 'md' && format !== 'json') return c.json({ error: `?format= must be md or json (got "${format}")` }, 400);
      const reports = buildReport(host.optimizer, server);
      const file = `switchboard-optimization${server ? `-${server}` : ''}.${format}`;
      const disposition = { 'content-disposition': `attachment; filename="${file}"` };
      if (format === 'json') return c.json({ tools: reports }, 200, disposition);
      return c.body(reportMarkdown(reports), 200, { 'content-type': 'text/markdown; charset=utf-8', ...disposition });
    }),
  );
}
