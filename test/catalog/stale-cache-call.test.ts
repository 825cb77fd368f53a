// A lazy gateway lists a server from the store's cache without starting it; a call naming a tool the
// server gained since that cache was taken is still forwarded: the cached servers are listed live once
// and the name is looked up again (Catalog.resolveLate), for a plain call and for meta mode's
// tool_execute alike. A name no server has even then is the gateway's -32602 with close matches.
// Real gateway CLI over stdio, real fixture server, real SQLite store.
import path from 'node:path';
import { writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { connectStdio, fixtureServer, tempDir, writeConfig } from '../helpers/gateway.js';
import { runCli } from '../cli/run-cli.js';

const ANY = z.any();
const tool = (name: string) => ({ name, description: `The ${name} tool.`, inputSchema: { type: 'object', properties: { message: { type: 'string' } } } });

async function cachedThenGrown(settings?: Record<string, unknown>) {
  const dir = await tempDir('switchboard-stale-cache-');
  const toolsFile = path.join(dir, 'tools.json');
  await writeFile(toolsFile, JSON.stringify([tool('alpha')]));
  // Two servers: `serve --stdio` starts a config's only server early, which would list it live.
  const servers = { raw: fixtureServer('raw-server.ts', [], { RAW_TOOLS_FILE: toolsFile }), other: fixtureServer('raw-server.ts', [], { RAW_SERVER_NAME: 'other' }) };
  const config = await writeConfig(servers, settings, dir);
  // What a previous run leaves behind: every server listed once, into the store's cache.
  const listed = await runCli(['tools', '--config', config], path.join(dir, 'data'));
  expect(listed.code, listed.stderr).toBe(0);
  // The server gains a tool after its listing was cached.
  await writeFile(toolsFile, JSON.stringify([tool('alpha'), tool('beta')]));
  return config;
}

describe('a call to a tool added since the cached listing', () => {
  it('is forwarded after the cached server is listed live; an unknown name still gets close matches', async () => {
    const connected = await connectStdio(await cachedThenGrown());
    try {
      const { tools } = await connected.client.request({ method: 'tools/list', params: {} }, ANY);
      const names = tools.map((t: { name: string }) => t.name) as string[];
      expect(names).toContain('raw_alpha'); // from the cache: the server has not been started
      expect(names).not.toContain('raw_beta');
      const beta = await connected.client.request({ method: 'tools/call', params: { name: 'raw_beta', arguments: { message: 'hi' } } }, ANY);
      expect(beta.isError).not.toBe(true);
      expect(JSON.parse(beta.content[0].text)).toMatchObject({ tool: 'beta', arguments: { message: 'hi' } });
      const unknown = await connected.client.request({ method: 'tools/call', params: { name: 'raw_betta', arguments: {} } }, ANY).catch((error: unknown) => error);
      expect(unknown).toMatchObject({ code: -32602, message: expect.stringContaining('Unknown tool: "raw_betta". Did you mean: raw_beta') });
    } finally {
      await connected.close();
    }
  }, 60_000);

  it("is forwarded by meta mode's tool_execute too", async () => {
    const connected = await connectStdio(await cachedThenGrown({ mode: 'meta' }));
    try {
      const result = await connected.client.request(
        { method: 'tools/call', params: { name: 'tool_execute', arguments: { toolKey: 'raw_beta', arguments: { message: 'meta' } } } },
        ANY,
      );
      expect(result.isError).not.toBe(true);
      expect(JSON.parse(result.content[0].text)).toMatchObject({ tool: 'beta', arguments: { message: 'meta' } });
    } finally {
      await connected.close();
    }
  }, 60_000);
});
