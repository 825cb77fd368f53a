// Owns GET /api/metrics/series: calls, failures and p50/p95 latency over time, per server or per server
// and tool, from the store (raw calls in buckets, rolled-up days for older ones). Query: since (a
// duration like 1h or an ISO date; default 1h), bucket (a duration like 30s, 5m, 1h; default: about
// 60 buckets over the window, at least 1 s), groupBy (server | tool; default server), server, tool.
import type { Hono } from 'hono';
import { z } from 'zod';
import type { Gateway } from '../gateway/gateway.js';
import { parseSince, QueryBoundError } from '../store/query-bounds.js';
import { readSeries } from '../store/metrics-series.js';
import type { AuthVariables } from './auth.js';

const DURATION = /^(\d+)(s|m|h|d)$/;
const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
/** More buckets than this would be unreadable and slow: the request is refused. */
const MAX_BUCKETS = 2000;
const TARGET_BUCKETS = 60;

const seriesQuery = z.strictObject({
  since: z.string().min(1).max(64).optional(),
  bucket: z.string().regex(DURATION, { message: 'must be a duration like 30s, 5m, 1h or 1d' }).optional(),
  groupBy: z.enum(['server', 'tool']).optional(),
  server: z.string().min(1).max(256).optional(),
  tool: z.string().min(1).max(512).optional(),
});

export function registerMetricsSeriesRoute(app: Hono<{ Variables: AuthVariables }>, gateway: Gateway): void {
  app.get('/api/metrics/series', (c) => {
    const store = gateway.store;
    if (!store) return c.json({ error: 'this gateway has no store, so it keeps no call metrics (switchboard serve opens <data-dir>/switchboard.db)' }, 404);
    const parsed = seriesQuery.safeParse(Object.fromEntries(Object.entries(c.req.query()).filter(([, v]) => v !== '')));
    if (!parsed.success) {
      const detail = parsed.error.issues.map((i) => `${i.path.join('.') || 'query'}: ${i.message}`).join('; ');
      return c.json({ error: `Bad query for /api/metrics/series: ${detail}. Parameters: since, bucket, groupBy=server|tool, server, tool.` }, 400);
    }
    const now = Date.now();
    let since: number;
    try {
      since = parseSince(parsed.data.since ?? '1h', 'since', now);
    } catch (error) {
      if (error instanceof QueryBoundError) return c.json({ error: error.message }, 400);
      throw error;
    }
    const windowMs = Math.max(now - since, 1000);
    const bucketMs = parsed.data.bucket ? durationMs(parsed.data.bucket) : autoBucket(windowMs);
    if (bucketMs < 1000) return c.json({ error: 'bucket must be at least 1s' }, 400);
    if (windowMs / bucketMs > MAX_BUCKETS) return c.json({ error: `since/bucket gives ${Math.ceil(windowMs / bucketMs)} buckets; at most ${MAX_BUCKETS}: use a wider bucket or a shorter window.` }, 400);
    const groupBy = parsed.data.groupBy ?? 'server';
    const series = readSeries(store.db, { bucketMs, since, groupBy, server: parsed.data.server, tool: parsed.data.tool, scope: gateway.pool.identities() });
    return c.json({ since, until: now, bucketMs, groupBy, series });
  });
}

function durationMs(text: string): number {
  const [, amount, unit] = DURATION.exec(text)!;
  return Number(amount) * UNIT_MS[unit!]!;
}

/** A round bucket width giving about TARGET_BUCKETS buckets over the window. */
function autoBucket(windowMs: number): number {
  const steps = [1, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 21_600, 43_200, 86_400].map((s) => s * 1000);
  return steps.find((s) => windowMs / s <= TARGET_BUCKETS) ?? 86_400_000;
}
