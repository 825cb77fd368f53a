// A 2026-07-28 `subscriptions/listen` stream keeps the servers it listens to from being released as
// idle, and lets them go when it closes. With isolatedIdleMs short, three servers are started by a
// modern client's calls: `raw` (a list-change listen on its per-server endpoint holds it), `fixture`
// (a listen for a resource it serves holds it) and `memory` (nothing holds it). The idle release stops
// memory; raw and fixture stay up (same processes) and their list change and resource update reach the
// streams; once the streams close, raw and fixture are released too. On the stdio face likewise,
// where a 2026-07-28 connection is one gateway session for its life but holds its servers only
// through its requests and streams, like an HTTP client. No clock is trusted: every step waits for a
// condition.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { connectStdio, fixtureServer, isAlive, npmServer, startHttpGateway, waitFor, writeConfig, type RunningGateway } from '../helpers/gateway.js';

const WATCHED = 'test://watched-resource';
const OBJECT = { type: 'object', properties: {} };
const RAW_TOOLS = [
  { name: 'echo', description: 'Echoes its arguments.', inputSchema: OBJECT },
  { name: 'add_tool', description: 'Adds a tool.', inputSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } },
];

async function modernClient(url: string): Promise<Client> {
  const client = new Client({ name: 'listen-keeps-alive-test', version: '1.0.0' }, { capabilities: {}, versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

function text(result: unknown): string {
  return (result as { content: { text: string }[] }).content.map((c) => c.text).join('\n');
}

interface Records {
  records(): Array<Record<string, unknown>>;
}

/**
 * Starts the three servers with calls, opens the streams, and checks what is held, delivered and
 * released. `raw` is the client whose list-change stream holds the raw server (its per-server
 * endpoint); without it only the resource stream is opened, and raw goes with memory.
 */
async function holdAndRelease(log: Records, all: Client, raw?: Client): Promise<void> {
  const pidsOf = (server: string) => log.records().filter((r) => r.msg === 'connected' && r.server === server).map((r) => Number(r.pid));
  await all.callTool({ name: 'raw_echo', arguments: {} });
  await all.callTool({ name: 'fixture_test_simple_text', arguments: {} });
  await all.callTool({ name: 'memory_read_graph', arguments: {} });
  const [rawPid, fixturePid, memoryPid] = await waitFor(() => {
    const pids = ['raw', 'fixture', 'memory'].map((server) => pidsOf(server)[0]);
    return pids.every((pid) => pid !== undefined) ? (pids as number[]) : undefined;
  }, 'the three servers to connect');

  let toolChanges = 0;
  raw?.setNotificationHandler('notifications/tools/list_changed', () => void toolChanges++);
  const toolsStream = await raw?.listen({ toolsListChanged: true });
  const updated: string[] = [];
  all.setNotificationHandler('notifications/resources/updated', (notification) => void updated.push(notification.params.uri));
  const resourceStream = await all.listen({ resourceSubscriptions: [WATCHED] });

  // An idle round passes: memory, which nothing holds, is stopped.
  await waitFor(() => !isAlive(memoryPid!) && (raw !== undefined || !isAlive(rawPid!)), `server-memory (pid ${memoryPid})${raw ? '' : ` and raw (pid ${rawPid})`} to be released as idle`);
  if (raw) expect(isAlive(rawPid!)).toBe(true);
  expect(isAlive(fixturePid!)).toBe(true);

  // The held servers are the same processes, and what they report reaches the streams.
  if (raw) {
    await raw.callTool({ name: 'add_tool', arguments: { name: 'added_while_held' } });
    await waitFor(() => toolChanges > 0, 'tools/list_changed on the listen stream');
    expect(pidsOf('raw')).toEqual([rawPid]);
  }
  expect(text(await all.callTool({ name: 'fixture_test_trigger_resource_update', arguments: {} }))).toContain('subscribers notified');
  await waitFor(() => updated.includes(WATCHED), 'notifications/resources/updated on the listen stream');
  expect(pidsOf('fixture')).toEqual([fixturePid]);

  await toolsStream?.close();
  await resourceStream.close();
  await waitFor(() => !isAlive(rawPid!) && !isAlive(fixturePid!), `raw (pid ${rawPid}) and fixture (pid ${fixturePid}) to be released once the streams closed`, 30_000);
}

describe('a listen stream holds the servers it listens to', () => {
  let gateway: RunningGateway;
  let config: string;

  beforeAll(async () => {
    config = await writeConfig(
      {
        raw: fixtureServer('raw-server.ts', [], { RAW_TOOLS: JSON.stringify(RAW_TOOLS) }),
        fixture: fixtureServer('conformance-server.ts', ['--stdio']),
        memory: npmServer('memory'),
      },
      { isolatedIdleMs: 1500 },
    );
    gateway = await startHttpGateway(config);
  }, 60_000);
  afterAll(async () => {
    await gateway?.close();
  });

  it('HTTP: held while the streams are open (list change and resource update delivered), released after they close', { timeout: 90_000 }, async () => {
    const all = await modernClient(`${gateway.url}/mcp`);
    const raw = await modernClient(`${gateway.url}/s/raw/mcp`);
    try {
      await holdAndRelease(gateway.log, all, raw);
    } finally {
      await raw.close();
      await all.close();
    }
  });

  // A list-change stream on stdio listens to every server of the connection's view: only the resource stream here.
  it('stdio: a resource stream holds its server on a 2026-07-28 stdio connection, the others are released', { timeout: 90_000 }, async () => {
    const client = new Client({ name: 'listen-keeps-alive-stdio', version: '1.0.0' }, { capabilities: {}, versionNegotiation: { mode: { pin: '2026-07-28' } } });
    const connected = await connectStdio(config, client);
    try {
      expect(client.getProtocolEra()).toBe('modern');
      await holdAndRelease(connected.log!, client);
    } finally {
      await connected.close();
    }
  });
});
