// Owns the admin API that changes servers (docs/http.md#server-management): add a server (POST /api/servers:
// validated like the config file, written to it atomically, applied live), restart one
// (POST /api/servers/:key/restart), read a server's full tool list with what is enabled (GET
// /api/servers/:key/tools) and choose its visible tools (PUT /api/servers/:key/tools, live; `persist: true` also
// writes enabledTools/disabledTools into the config file).
import type { Hono } from 'hono';
import { z } from 'zod';
import { ConfigError } from '../config/index.js';
import { editServers } from '../config/edit.js';
import type { Gateway } from '../gateway/gateway.js';
import { BARE_PROFILE } from '../servers/profile.js';
import type { AuthVariables } from './auth.js';

const toolNames = z.array(z.string().min(1).max(256)).max(5000);
const toolSelection = z.strictObject({ enabledTools: toolNames.optional(), disabledTools: toolNames.optional(), persist: z.boolean().optional() });
const stringMap = z.record(z.string().min(1).max(256), z.string().max(8192));
const newServer = z.strictObject({
  key: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/, 'letters, digits, ".", "_" and "-", starting with a letter or digit, at most 64'),
  type: z.enum(['stdio', 'http', 'sse']).optional(),
  command: z.string().min(1).max(4096).optional(),
  args: z.array(z.string().max(8192)).max(200).optional(),
  env: stringMap.optional(),
  cwd: z.string().min(1).max(4096).optional(),
  url: z.string().min(1).max(4096).optional(),
  headers: stringMap.optional(),
  enabledTools: toolNames.optional(),
  disabledTools: toolNames.optional(),
});

const issues = (error: z.ZodError) => error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ');

export function registerServerRoutes(app: Hono<{ Variables: AuthVariables }>, gateway: Gateway, configFile: string | undefined): void {
  const unknown = (key: string) => ({ error: `Unknown server "${key}". Configured: ${gateway.pool.keys().join(', ') || 'none'}.` });
  const noFile = { error: 'this gateway was not started from a config file, so it has nowhere to write servers' };

  app.post('/api/servers', async (c) => {
    const parsed = newServer.safeParse(await c.req.json().catch(() => undefined));
    if (!parsed.success) return c.json({ error: `Expected {"key", "command", "args"?, "env"?, "cwd"?} (stdio) or {"key", "url", "headers"?} (HTTP): ${issues(parsed.error)}` }, 400);
    const { key, ...entry } = parsed.data;
    if (entry.command && entry.url) return c.json({ error: 'give "command" (a stdio server) or "url" (an HTTP server), not both' }, 400);
    if (!entry.command && !entry.url) return c.json({ error: 'give "command" (a stdio server) or "url" (an HTTP server)' }, 400);
    if (!configFile) return c.json(noFile, 409);
    if (gateway.pool.has(key)) return c.json({ error: `A server "${key}" is already configured; pick another key` }, 409);
    try {
      let exists = false;
      const loaded = await editServers(configFile, (entries) => {
        exists = key in entries;
        if (!exists) entries[key] = entry;
      });
      if (exists) return c.json({ error: `The config file already has a server "${key}" (perhaps disabled); pick another key` }, 409);
      await gateway.applyServers(loaded.servers);
      return c.json({ server: key, entry, file: configFile }, 201);
    } catch (error) {
      if (error instanceof ConfigError) return c.json({ error: error.message }, 400);
      throw error;
    }
  });

  app.post('/api/servers/:key/restart', async (c) => {
    const key = c.req.param('key');
    if (!(await gateway.restartServer(key))) return c.json(unknown(key), 404);
    const status = gateway.serverStatus().find((s) => s.key === key);
    return c.json({ server: key, state: status?.state ?? 'configured', error: status?.error ?? null });
  });

  // Every tool the server lists (asked live, before enabledTools / disabledTools), each marked enabled or not.
  app.get('/api/servers/:key/tools', async (c) => {
    const key = c.req.param('key');
    const config = gateway.pool.config(key);
    if (!config) return c.json(unknown(key), 404);
    const connection = gateway.pool.connection(key, BARE_PROFILE);
    if (!connection) return c.json(unknown(key), 404);
    try {
      await connection.start();
      const tools = (await connection.listAll('tools')) as Array<{ name: string; description?: string }>;
      const enabled = (name: string) => (config.enabledTools === undefined || config.enabledTools.includes(name)) && !config.disabledTools?.includes(name);
      return c.json({
        server: key,
        enabledTools: config.enabledTools ?? null,
        disabledTools: config.disabledTools ?? null,
        tools: tools.map((t) => ({ name: t.name, description: t.description ?? '', enabled: enabled(t.name) })),
      });
    } catch (error) {
      return c.json({ error: `${key}: cannot list its tools: ${(error as Error).message}` }, 502);
    } finally {
      void gateway.releaseUnused();
    }
  });

  // Which tools of a server are visible: {"enabledTools"?, "disabledTools"?, "persist"?}. Applied live; with
  // persist the selection is also written into the config file (else it lasts until the gateway stops).
  app.put('/api/servers/:key/tools', async (c) => {
    const key = c.req.param('key');
    const parsed = toolSelection.safeParse(await c.req.json().catch(() => undefined));
    if (!parsed.success) return c.json({ error: `Expected {"enabledTools"?: string[], "disabledTools"?: string[], "persist"?: boolean}: ${issues(parsed.error)}` }, 400);
    const { persist, ...selection } = parsed.data;
    if (!gateway.pool.has(key)) return c.json(unknown(key), 404);
    if (persist) {
      if (!configFile) return c.json(noFile, 409);
      try {
        let found = false;
        await editServers(configFile, (entries) => {
          const entry = entries[key] as Record<string, unknown> | undefined;
          if (!entry || typeof entry !== 'object') return;
          found = true;
          for (const field of ['enabledTools', 'disabledTools'] as const) {
            if (selection[field] === undefined) delete entry[field];
            else entry[field] = selection[field];
          }
        });
        if (!found) return c.json({ error: `The config file has no entry "${key}" to write the selection into` }, 409);
      } catch (error) {
        if (error instanceof ConfigError) return c.json({ error: error.message }, 400);
        throw error;
      }
    }
    await gateway.setToolSelection(key, selection);
    return c.json({ server: key, ...selection, persisted: persist === true });
  });
}
