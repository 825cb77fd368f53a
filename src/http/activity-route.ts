// Owns GET /api/activity: the gateway's live activity (finished tool calls, server requests they
// caused, each with its correlation id) as server-sent events, with the newest events replayed
// first so a viewer that connects sees the recent past. Filters: server, tool, status,
// correlationId; `recent` (default 50, at most the feed's size) events replayed; `format=json`
// answers the recent events once as JSON instead of streaming.
import type { Hono } from 'hono';
import type { AuthVariables } from './auth.js';
import { z } from 'zod';
import { ACTIVITY_KEPT, matchesActivity, type ActivityFeed, type ActivityFilter } from '../metrics/activity.js';
import { CALL_OUTCOMES } from '../store/types.js';
import { eventStream } from './sse.js';

const MAX_FIELD = 512;
const activityQuery = z.strictObject({
  server: z.string().min(1).max(MAX_FIELD).optional(),
  tool: z.string().min(1).max(MAX_FIELD).optional(),
  status: z.enum(CALL_OUTCOMES).optional(),
  correlationId: z.string().min(1).max(MAX_FIELD).optional(),
  recent: z.coerce.number().int().min(0).max(ACTIVITY_KEPT).optional(),
  format: z.enum(['sse', 'json']).optional(),
});

export function registerActivityRoute(app: Hono<{ Variables: AuthVariables }>, activity: ActivityFeed): void {
  app.get('/api/activity', (c) => {
    const parsed = activityQuery.safeParse(c.req.query());
    if (!parsed.success) {
      const detail = parsed.error.issues.map((i) => `${i.path.join('.') || 'query'}: ${i.message}`).join('; ');
      return c.json({ error: `Bad query for /api/activity: ${detail}. Filters: server, tool, status, correlationId; recent=N (0-${ACTIVITY_KEPT}); format=sse|json.` }, 400);
    }
    const { recent = 50, format = 'sse', ...rest } = parsed.data;
    const filter: ActivityFilter = rest;
    const past = activity.recent().filter((e) => matchesActivity(e, filter));
    const replay = recent >= past.length ? past : past.slice(past.length - recent);
    if (format === 'json') return c.json({ events: replay });
    return eventStream(
      c.req.raw.signal,
      (send) => {
        for (const event of replay) send(event.kind, event);
        return activity.subscribe((event) => {
          if (matchesActivity(event, filter)) send(event.kind, event);
        });
      },
      'switchboard activity',
    );
  });
}
