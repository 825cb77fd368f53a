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

/**
 * The gateway both suites listen to: raw (list changes on its per-server endpoint), fixture (resource
 * updates), memory (held by nothing, the witness of an idle round), with a short isolatedIdleMs so
 * idle rounds come quickly. The config is returned too, for a stdio gateway on the same servers.
 */
async function startListenGateway(): Promise<{ config: string; gateway: RunningGateway }> {
  const config = await writeConfig(
    {
      raw: fixtureServer('raw-server.ts', [], { RAW_TOOLS: JSON.stringify(RAW_TOOLS) }),
      fixture: fixtureServer('conformance-server.ts', ['--stdio']),
      memory: npmServer('memory'),
    },
    { isolatedIdleMs: 1500 },
  );
  return { config, gateway: await startHttpGateway(config) };
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
    ({ config, gateway } = await startListenGateway());
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

/** Two streams that hold one server, and what the second hears from it once the first has closed. */
interface TwoHolders {
  server: 'raw' | 'fixture';
  /** Where the two listening clients connect. */
  endpoint: string;
  /** A call (on /mcp) that starts the server. */
  startWith: string;
  filter: Parameters<Client['listen']>[0];
  heard: 'notifications/tools/list_changed' | 'notifications/resources/updated';
  /** Makes the server send what the streams listen for. */
  trigger(caller: Client): Promise<void>;
}

const LIST_CHANGE_HOLDERS: TwoHolders = {
  server: 'raw',
  endpoint: '/s/raw/mcp',
  startWith: 'raw_echo',
  filter: { toolsListChanged: true },
  heard: 'notifications/tools/list_changed',
  trigger: async (caller) => void (await caller.callTool({ name: 'raw_add_tool', arguments: { name: 'added_after_first_closed' } })),
};

const RESOURCE_HOLDERS: TwoHolders = {
  server: 'fixture',
  endpoint: '/mcp',
  startWith: 'fixture_test_simple_text',
  filter: { resourceSubscriptions: [WATCHED] },
  heard: 'notifications/resources/updated',
  trigger: async (caller) => expect(text(await caller.callTool({ name: 'fixture_test_trigger_resource_update', arguments: {} }))).toContain('subscribers notified'),
};

// Two streams hold one server: the holds are counted, not a flag. Two 2026-07-28 clients listen to the
// same server, for list changes (held through listen-holds.ts only) or for one resource's updates (held
// by the resource subscription too, counted per URI). The first stream closes: the second still hears
// the server; an idle round passes (seen by a witness, memory, started after the close and released as
// idle) and the server is the same process. The second closes: the next idle round releases it.
describe('two listen streams hold the same server', () => {
  let gateway: RunningGateway;

  beforeAll(async () => {
    ({ gateway } = await startListenGateway());
  }, 60_000);
  afterAll(async () => {
    await gateway?.close();
  });

  for (const [kind, holders] of [['list changes', LIST_CHANGE_HOLDERS], ['resource updates', RESOURCE_HOLDERS]] as const) {
    it(`HTTP, ${kind}: the server stays up while either stream is open, and is released at the next idle round after the last closes`, { timeout: 120_000 }, async () => {
      const { server } = holders;
      const since = gateway.log.records().length;
      const pidsOf = (key: string) => gateway.log.records().slice(since).filter((r) => r.msg === 'connected' && r.server === key).map((r) => Number(r.pid));
      const caller = await modernClient(`${gateway.url}/mcp`);
      const first = await modernClient(`${gateway.url}${holders.endpoint}`);
      const second = await modernClient(`${gateway.url}${holders.endpoint}`);
      try {
        await caller.callTool({ name: holders.startWith, arguments: {} });
        await caller.callTool({ name: 'memory_read_graph', arguments: {} });
        const [serverPid, memoryPid] = await waitFor(() => {
          const pids = [pidsOf(server)[0], pidsOf('memory')[0]];
          return pids.every((pid) => pid !== undefined) ? (pids as number[]) : undefined;
        }, `${server} and server-memory to connect`);

        let heardOnSecond = 0;
        second.setNotificationHandler(holders.heard, () => void heardOnSecond++);
        const firstStream = await first.listen(holders.filter);
        const secondStream = await second.listen(holders.filter);

        // An idle round with both streams open: memory goes, the held server stays.
        await waitFor(() => !isAlive(memoryPid!), `server-memory (pid ${memoryPid}) to be released as idle`);
        expect(isAlive(serverPid!)).toBe(true);

        await firstStream.close();
        await holders.trigger(caller);
        await waitFor(() => heardOnSecond > 0, `${holders.heard} on the second stream after the first closed`);

        // A witness started after the first stream closed is released by a later idle round; the server survives it.
        await caller.callTool({ name: 'memory_read_graph', arguments: {} });
        const witnessPid = await waitFor(() => pidsOf('memory')[1], 'server-memory to start again as the witness');
        await waitFor(() => !isAlive(witnessPid), `the witness server-memory (pid ${witnessPid}) to be released as idle`, 30_000);
        expect(isAlive(serverPid!)).toBe(true);
        expect(pidsOf(server)).toEqual([serverPid]);

        await secondStream.close();
        await waitFor(() => !isAlive(serverPid!), `${server} (pid ${serverPid}) to be released once the second stream closed`, 30_000);
        expect(pidsOf(server)).toEqual([serverPid]);
      } finally {
        await Promise.all([caller.close(), first.close(), second.close()]);
      }
    });
  }
});
