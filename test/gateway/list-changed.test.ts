// Tool list changes travel from a downstream server to connected clients through both faces: the raw
// server (test/fixtures/raw-server.ts) adds and removes tools at runtime and says so with
// notifications/tools/list_changed; the gateway re-lists, tells its clients (debounced), and the next
// tools/list shows the change under the prefixed name.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Client } from '@modelcontextprotocol/client';
import {
  connectHttp,
  connectStdio,
  fixtureServer,
  newClient,
  startHttpGateway,
  waitFor,
  writeConfig,
  type ConnectedClient,
  type RunningGateway,
} from '../helpers/gateway.js';

const ANY = z.any();
const OBJECT = { type: 'object', properties: {} };
const RAW_TOOLS = [
  { name: 'echo', description: 'Echoes its arguments.', inputSchema: OBJECT },
  { name: 'add_tool', description: 'Adds a tool.', inputSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } },
  { name: 'remove_tool', description: 'Removes a tool.', inputSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } },
  { name: 'rename_burst', description: 'Adds five tools in a burst.', inputSchema: OBJECT },
];
const BURST = ['raw_burst_1', 'raw_burst_2', 'raw_burst_3', 'raw_burst_4', 'raw_burst_5'];
/** How long to keep counting after a burst settles, for late notifications. */
const QUIET_MS = 1000;
/** A gap without notifications long enough to call the gateway quiet (its debounce is 100 ms). */
const SETTLE_MS = 400;

async function toolNames(client: Client): Promise<string[]> {
  const out: string[] = [];
  let cursor: string | undefined;
  do {
    const result = await client.request({ method: 'tools/list', params: cursor ? { cursor } : {} }, ANY);
    out.push(...(result.tools as Array<{ name: string }>).map((t) => t.name));
    cursor = result.nextCursor;
  } while (cursor);
  return out;
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = await client.request({ method: 'tools/call', params: { name, arguments: args } }, ANY);
  expect(result.isError, JSON.stringify(result)).not.toBe(true);
  return JSON.parse(result.content[0].text) as Record<string, unknown>;
}

describe.each(['stdio', 'http'] as const)('tools/list_changed over %s', (face) => {
  let gateway: RunningGateway | undefined;
  let connected: ConnectedClient;
  let client: Client;
  let notified = 0;

  beforeAll(async () => {
    const config = await writeConfig({ raw: fixtureServer('raw-server.ts', [], { RAW_SERVER_NAME: 'raw', RAW_TOOLS: JSON.stringify(RAW_TOOLS) }) });
    client = newClient();
    client.setNotificationHandler('notifications/tools/list_changed', () => {
      notified++;
    });
    if (face === 'http') {
      gateway = await startHttpGateway(config);
      connected = await connectHttp(gateway.url, client);
    } else {
      connected = await connectStdio(config, client);
    }
    // The gateway learns the server's tools on the first list; changes are relative to that. It may
    // announce that first listing too (see settle), so the tests count only from a quiet point.
    expect(await toolNames(client)).toEqual(['raw_echo', 'raw_add_tool', 'raw_remove_tool', 'raw_rename_burst']);
    await settle();
  });

  /** Waits (bounded) until no list_changed has arrived for SETTLE_MS. */
  async function settle(): Promise<void> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const seen = notified;
      await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
      if (notified === seen || Date.now() > deadline) return;
    }
  }

  afterAll(async () => {
    await connected?.close().catch(() => undefined);
    await gateway?.close();
  });

  it('announces an added tool, which the next list shows under its prefixed name', async () => {
    const before = notified;
    expect(await call(client, 'raw_add_tool', { name: 'fresh' })).toMatchObject({ tool: 'add_tool', added: true });
    await waitFor(() => notified > before, 'notifications/tools/list_changed after add_tool');
    const names = await toolNames(client);
    expect(names).toContain('raw_fresh');
    expect(await call(client, 'raw_fresh', { n: 1 })).toEqual({ tool: 'fresh', arguments: { n: 1 } });
  });

  it('announces a removed tool, which the next list no longer shows', async () => {
    const before = notified;
    await call(client, 'raw_remove_tool', { name: 'fresh' });
    await waitFor(() => notified > before, 'notifications/tools/list_changed after remove_tool');
    expect(await toolNames(client)).not.toContain('raw_fresh');
    const error = await client.request({ method: 'tools/call', params: { name: 'raw_fresh', arguments: {} } }, ANY).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: -32602 });
  });

  it('debounces a burst of downstream notifications into fewer upstream ones', async () => {
    const before = notified;
    const result = await call(client, 'raw_rename_burst');
    expect(result.added).toEqual(['burst_1', 'burst_2', 'burst_3', 'burst_4', 'burst_5']);
    // Every tool of the burst becomes visible, announced at least once...
    await waitFor(async () => {
      if (notified === before) return false;
      const listed = await toolNames(client);
      return BURST.every((n) => listed.includes(n));
    }, 'the whole burst to be listed');
    // ...then count for a quiet second: five downstream notifications, fewer upstream.
    await new Promise((resolve) => setTimeout(resolve, QUIET_MS));
    const count = notified - before;
    expect(count).toBeGreaterThanOrEqual(1);
    expect(count).toBeLessThan(5);
    expect(await toolNames(client)).toEqual(expect.arrayContaining(BURST));
  });
});
