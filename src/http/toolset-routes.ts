// Owns the admin API of saved toolsets: GET /api/toolsets (each with its tools, its fixed endpoint
// /toolsets/{name}/mcp and what it cannot serve now, plus the gateway's default), POST /api/toolsets
// (create or replace one from {name, description?, tools}), DELETE /api/toolsets/:name, and
// POST /api/toolsets/:name/equip and /unequip for the gateway's default toolset (sessions that follow
// the default hear tools/list_changed). The state-changing ones need an admin token (auth.ts).
import type { Context, Hono } from 'hono';
import { z } from 'zod';
import type { Gateway } from '../gateway/gateway.js';
import { BARE_PROFILE } from '../servers/profile.js';
import { ToolReferenceError } from '../views/toolset-refs.js';
import { ToolsetBusyError, type ToolsetService } from '../views/toolsets.js';
import type { Toolset } from '../store/index.js';
import type { AuthVariables } from './auth.js';

const NAME = z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, { message: 'must be 1 to 64 characters from A-Z a-z 0-9 _ . -' });
const reference = z.union([
  z.strictObject({ server: z.string().min(1).max(256), tool: z.string().min(1).max(256) }),
  z.strictObject({ namespacedName: z.string().min(3).max(512) }),
]);
const createRequest = z.strictObject({
  name: NAME,
  description: z.string().max(1000).optional(),
  tools: z.array(reference).min(1).max(1000),
});

type App = Hono<{ Variables: AuthVariables }>;

export function toolsetEndpoint(name: string): string {
  return `/toolsets/${encodeURIComponent(name)}/mcp`;
}

export function registerToolsetRoutes(app: App, gateway: Gateway): void {
  const unavailable = (c: Context) => c.json({ error: 'toolsets need the store (switchboard serve opens <data-dir>/switchboard.db), and this gateway runs without one' }, 404);
  const unknown = (c: Context, toolsets: ToolsetService, name: string) =>
    c.json({ error: `No toolset named "${name}". Saved toolsets: ${toolsets.list().map((t) => t.name).join(', ') || 'none'}.` }, 404);

  app.get('/api/toolsets', (c) => {
    const toolsets = gateway.toolsets;
    if (!toolsets) return unavailable(c);
    const catalog = gateway.catalogFor(BARE_PROFILE);
    const equipped = toolsets.active() ?? null;
    return c.json({
      equipped,
      toolsets: toolsets.list().map((t) => describe(t, toolsets.resolve(t.name, catalog)?.missing ?? [], equipped)),
    });
  });

  app.post('/api/toolsets', async (c) => {
    const toolsets = gateway.toolsets;
    if (!toolsets) return unavailable(c);
    const parsed = createRequest.safeParse(await c.req.json().catch(() => undefined));
    if (!parsed.success) {
      const detail = parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ');
      return c.json({ error: `Expected {"name": string, "description"?: string, "tools": [{"server", "tool"} | {"namespacedName": "server.tool"}, ...]}: ${detail}` }, 400);
    }
    const catalog = gateway.catalogFor(BARE_PROFILE);
    await catalog.ensureWithin(gateway.pool.keys(), 5000);
    try {
      const saved = await toolsets.build(parsed.data, catalog, gateway.pool.keys());
      return c.json({ toolset: describe(saved, toolsets.resolve(saved.name, catalog)?.missing ?? [], toolsets.active() ?? null) }, 201);
    } catch (error) {
      if (error instanceof ToolReferenceError) return c.json({ error: error.message, suggestions: error.suggestions }, 400);
      if (error instanceof ToolsetBusyError) return c.json({ error: error.message }, 503);
      throw error;
    }
  });

  app.delete('/api/toolsets/:name', async (c) => {
    const toolsets = gateway.toolsets;
    if (!toolsets) return unavailable(c);
    const name = c.req.param('name');
    if (!toolsets.get(name)) return unknown(c, toolsets, name);
    const busy = await busyAware(c, () => toolsets.delete(name));
    return busy ?? c.json({ deleted: name });
  });

  app.post('/api/toolsets/:name/equip', async (c) => {
    const toolsets = gateway.toolsets;
    if (!toolsets) return unavailable(c);
    const name = c.req.param('name');
    if (!toolsets.get(name)) return unknown(c, toolsets, name);
    const busy = await busyAware(c, () => toolsets.equip(name));
    return busy ?? c.json({ equipped: name });
  });

  app.post('/api/toolsets/:name/unequip', async (c) => {
    const toolsets = gateway.toolsets;
    if (!toolsets) return unavailable(c);
    const name = c.req.param('name');
    if (!toolsets.get(name)) return unknown(c, toolsets, name);
    if (toolsets.active() !== name) return c.json({ error: `Toolset "${name}" is not the equipped one (equipped: ${toolsets.active() ?? 'none'}).` }, 409);
    const busy = await busyAware(c, () => toolsets.unequip());
    return busy ?? c.json({ equipped: null, unequipped: name });
  });
}

/** Runs a toolset change; a 503 response when the change queue is full, else undefined. */
async function busyAware(c: Context, change: () => Promise<unknown>): Promise<Response | undefined> {
  try {
    await change();
    return undefined;
  } catch (error) {
    if (error instanceof ToolsetBusyError) return c.json({ error: error.message }, 503);
    throw error;
  }
}

function describe(toolset: Toolset, missing: Array<{ server: string; tool: string; reason: string }>, equipped: string | null) {
  return {
    name: toolset.name,
    ...(toolset.description && { description: toolset.description }),
    tools: toolset.tools,
    missing,
    equipped: toolset.name === equipped,
    endpoint: toolsetEndpoint(toolset.name),
    createdAt: toolset.createdAt,
    updatedAt: toolset.updatedAt,
  };
}
