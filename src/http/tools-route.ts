// Owns GET /api/tools: every tool of every server as the dashboard shows it. Per tool: exposed and
// original name, whether it is enabled (tools hidden by enabledTools / disabledTools are listed too,
// with `enabled: false`, so a tool picker can show them), tokens of its tools/list entry, input schema,
// the server's own (canonical) description and the one clients see, and call statistics (success rate,
// p50/p95, last error) with its latest latencies for a sparkline.
import type { Hono } from 'hono';
import type { Gateway } from '../gateway/gateway.js';
import type { Entry } from '../catalog/catalog.js';
import { BARE_PROFILE } from '../servers/profile.js';
import { listingTokens } from '../views/tokens.js';
import { recentLatencies, seriesKey } from '../store/metrics-series.js';
import type { ToolStats } from '../store/types.js';
import type { AuthVariables } from './auth.js';

/** Latencies per tool a sparkline draws. */
const SPARKLINE_POINTS = 30;
/** How long the route waits for servers that are not listed yet. */
const LISTING_WAIT_MS = 5000;

export interface ToolRow {
  server: string;
  name: string;
  /** The name clients of /mcp call it by; null for a hidden tool. */
  exposed: string | null;
  enabled: boolean;
  title?: string;
  description: string;
  canonicalDescription: string;
  /** The description clients see differs from the server's own (a promoted or overridden one). */
  promoted: boolean;
  tokens: number;
  inputSchema: unknown;
  stats: {
    calls: number;
    failures: number;
    successRate: number | null;
    p50Ms: number | null;
    p95Ms: number | null;
    lastError: { message: string; at: number } | null;
    lastCalledAt: number | null;
    latencies: number[];
  };
}

export function registerToolsRoute(app: Hono<{ Variables: AuthVariables }>, gateway: Gateway): void {
  app.get('/api/tools', async (c) => {
    const catalog = gateway.catalogFor(BARE_PROFILE);
    // A server still starting is shown without tools (named in `pending`) instead of holding the page.
    const pending = await catalog.ensureWithin(gateway.pool.keys(), LISTING_WAIT_MS);
    const scope = gateway.pool.identities();
    const stats = new Map<string, ToolStats>();
    let latencies = new Map<string, number[]>();
    if (gateway.store) {
      for (const s of gateway.store.metrics.toolStats({ scope })) stats.set(seriesKey(s.server, s.tool), s);
      latencies = recentLatencies(gateway.store.db, scope, SPARKLINE_POINTS);
    }
    const byExposed = new Map(catalog.tools().map((t) => [t.name as string, t]));
    const rows: ToolRow[] = [];
    for (const server of gateway.pool.keys()) {
      const canonical = new Map((catalog.canonical(server) ?? []).map((t) => [t.name as string, t]));
      const listed = new Set<string>();
      for (const tool of catalog.listing(server).tools) {
        const name = tool.name as string;
        listed.add(name);
        const exposed = catalog.toolTable.exposedName(server, name) ?? null;
        const asListed = (exposed && byExposed.get(exposed)) || tool;
        rows.push(row(server, name, exposed, true, asListed, canonical.get(name) ?? tool));
      }
      for (const tool of catalog.discovered(server) ?? []) {
        const name = tool.name as string;
        if (!listed.has(name)) rows.push(row(server, name, null, false, tool, tool));
      }
    }
    function row(server: string, name: string, exposed: string | null, enabled: boolean, tool: Entry, canonical: Entry): ToolRow {
      const key = seriesKey(server, name);
      const s = stats.get(key);
      const description = typeof tool.description === 'string' ? tool.description : '';
      const canonicalDescription = typeof canonical.description === 'string' ? canonical.description : '';
      return {
        server,
        name,
        exposed,
        enabled,
        ...(typeof tool.title === 'string' && { title: tool.title }),
        description,
        canonicalDescription,
        promoted: description !== canonicalDescription,
        tokens: listingTokens([tool]),
        inputSchema: tool.inputSchema ?? null,
        stats: {
          calls: s?.calls ?? 0,
          failures: s?.failures ?? 0,
          successRate: s?.successRate ?? null,
          p50Ms: s ? s.p50Ms : null,
          p95Ms: s ? s.p95Ms : null,
          lastError: s?.lastError ?? null,
          lastCalledAt: s?.lastCalledAt ?? null,
          latencies: latencies.get(key) ?? [],
        },
      };
    }
    return c.json({ tools: rows, pending, stored: gateway.store !== undefined });
  });
}
