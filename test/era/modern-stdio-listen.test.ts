// 2026-07-28 clients on both faces with a downstream that changes its tools at runtime (the raw
// fixture server): an SDK v2 client pinned to the modern era lists and calls on the stdio face, its
// `_meta` keys reach the downstream server (the envelope keys the gateway owns do not), a tool's
// `_meta.ui.resourceUri` (MCP Apps) stays intact, and a `subscriptions/listen` stream hears the
// downstream's tools/list_changed on the HTTP face and on stdio.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { connectStdio, fixtureServer, startHttpGateway, waitFor, writeConfig, type RunningGateway } from '../helpers/gateway.js';

const OBJECT = { type: 'object', properties: {} };
const RAW_TOOLS = [
  { name: 'echo', description: 'Echoes its arguments.', inputSchema: OBJECT, _meta: { ui: { resourceUri: 'ui://raw/app.html' } } },
  { name: 'add_tool', description: 'Adds a tool.', inputSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } },
  { name: 'echo_meta', description: 'Answers with the _meta it got.', inputSchema: OBJECT },
];

function modernClient(): Client {
  return new Client({ name: 'modern-test', version: '1.0.0' }, { capabilities: {}, versionNegotiation: { mode: { pin: '2026-07-28' } } });
}

function parsed(result: unknown): Record<string, unknown> {
  const content = (result as { content: { text: string }[] }).content;
  return JSON.parse(content[0]!.text) as Record<string, unknown>;
}

/** Opens a listen stream for tool list changes and counts the notifications it delivers. */
async function listenForTools(client: Client): Promise<{ count: () => number; close: () => Promise<void> }> {
  let count = 0;
  client.setNotificationHandler('notifications/tools/list_changed', () => void count++);
  const subscription = await client.listen({ toolsListChanged: true });
  expect(subscription.honoredFilter.toolsListChanged).toBe(true);
  return { count: () => count, close: () => subscription.close() };
}

async function exercise(client: Client, prefix: string, added: string): Promise<void> {
  expect(client.getProtocolEra()).toBe('modern');
  const { tools } = await client.listTools();
  const echo = tools.find((t) => t.name === `${prefix}echo`);
  expect(echo?._meta).toEqual({ ui: { resourceUri: 'ui://raw/app.html' } });

  const echoed = parsed(await client.callTool({ name: `${prefix}echo_meta`, arguments: {}, _meta: { 'example.com/trace': 'abc', progressToken: undefined } }));
  const meta = echoed.meta as Record<string, unknown>;
  expect(meta['example.com/trace']).toBe('abc');
  expect(Object.keys(meta).filter((k) => k.startsWith('io.modelcontextprotocol/'))).toEqual([]);

  const listening = await listenForTools(client);
  try {
    await client.callTool({ name: `${prefix}add_tool`, arguments: { name: added } });
    await waitFor(() => listening.count() > 0, 'tools/list_changed on the listen stream');
    await waitFor(async () => (await client.listTools()).tools.some((t) => t.name === `${prefix}${added}`), `the new tool ${added} listed`);
  } finally {
    await listening.close();
  }
}

describe('2026-07-28 clients with a downstream that changes at runtime', () => {
  let config: string;
  let gateway: RunningGateway;

  beforeAll(async () => {
    config = await writeConfig({ raw: fixtureServer('raw-server.ts', [], { RAW_TOOLS: JSON.stringify(RAW_TOOLS) }) });
    gateway = await startHttpGateway(config);
  }, 60_000);
  afterAll(async () => {
    await gateway?.close();
  });

  it('HTTP /mcp: _meta passed on, ui:// kept, listen hears list_changed', { timeout: 60_000 }, async () => {
    const client = modernClient();
    await client.connect(new StreamableHTTPClientTransport(new URL(`${gateway.url}/mcp`)));
    try {
      await exercise(client, 'raw_', 'added_http');
    } finally {
      await client.close();
    }
  });

  it('HTTP per-server endpoint: the same with the server\'s own names', { timeout: 60_000 }, async () => {
    const client = modernClient();
    await client.connect(new StreamableHTTPClientTransport(new URL(`${gateway.url}/s/raw/mcp`)));
    try {
      await exercise(client, '', 'added_per_server');
    } finally {
      await client.close();
    }
  });

  it('stdio face: a modern connection lists, calls and listens', { timeout: 60_000 }, async () => {
    const connected = await connectStdio(config, modernClient());
    try {
      expect(connected.client.getServerVersion()?.name).toBe('switchboard');
      await exercise(connected.client, 'raw_', 'added_stdio');
    } finally {
      await connected.close();
    }
  });
});
