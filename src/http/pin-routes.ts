// Owns the admin API of definition pinning: GET /api/pins lists the tool definition changes waiting for
// approval (with their diffs), POST /api/pins/approve re-pins them. POST is state-changing, so auth.ts
// requires an admin token for it; after an approval every client hears tools/list_changed.
import type { Hono } from 'hono';
import { z } from 'zod';
import type { Gateway } from '../gateway/gateway.js';
import { pinIdentity, type PendingChange } from '../catalog/pinning.js';
import type { AuthVariables } from './auth.js';

const approveRequest = z.strictObject({
  server: z.string().min(1).max(256),
  tool: z.string().min(1).max(256).optional(),
  /** Approve only if the change is still this one (the hash the reviewer saw). */
  hash: z.string().regex(/^[0-9a-f]{64}$/).optional(),
});

function view(change: PendingChange) {
  const { identity: _identity, ...rest } = change;
  return rest;
}

export function registerPinRoutes(app: Hono<{ Variables: AuthVariables }>, gateway: Gateway): void {
  const unavailable = () => ({ error: 'definition pinning needs the store (switchboard serve opens <data-dir>/switchboard.db), and this gateway runs without one' });

  app.get('/api/pins', (c) => {
    const pins = gateway.pins;
    if (!pins) return c.json(unavailable(), 404);
    const server = c.req.query('server') || undefined;
    if (server !== undefined && !gateway.pool.has(server)) return c.json({ error: `Unknown server "${server}". Configured: ${gateway.pool.keys().join(', ') || 'none'}.` }, 404);
    const keys = server === undefined ? gateway.pool.keys() : [server];
    const pending = keys.flatMap((key) => pins.pending(key, pinIdentity(gateway.pool.config(key)!))).map(view);
    return c.json({ mode: pins.mode, pending });
  });

  app.post('/api/pins/approve', async (c) => {
    const pins = gateway.pins;
    if (!pins) return c.json(unavailable(), 404);
    const parsed = approveRequest.safeParse(await c.req.json().catch(() => undefined));
    if (!parsed.success) {
      return c.json({ error: `Expected {"server": string, "tool"?: string, "hash"?: sha256 hex}: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ')}` }, 400);
    }
    const { server, tool, hash } = parsed.data;
    const config = gateway.pool.config(server);
    if (!config) return c.json({ error: `Unknown server "${server}". Configured: ${gateway.pool.keys().join(', ') || 'none'}.` }, 404);
    const pending = pins.pending(server, pinIdentity(config), tool).filter((p) => hash === undefined || p.hash === hash);
    if (pending.length === 0) {
      const what = tool === undefined ? `server "${server}"` : `tool "${tool}" of server "${server}"`;
      return c.json({ error: `Nothing to approve for ${what}${hash ? ` with hash ${hash.slice(0, 12)}` : ''}: no definition change is waiting (GET /api/pins lists them).` }, 409);
    }
    const approved = pins.approve(pending);
    if (approved.length) gateway.descriptionsChanged([server]);
    return c.json({ approved: approved.map(view) });
  });
}
