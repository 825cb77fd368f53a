// A 2026-07-28 `subscriptions/listen` stream keeps the servers it listens to from being released as
// idle, and lets them go when it closes. With isolatedIdleMs short, three servers are started by a
// modern client's calls: `raw` (a list-change listen on its per-server endpoint holds it), `fixture`
// (a listen for a resource it serves holds it) and `memory` (nothing holds it). The idle release stops
// memory; raw and fixture stay up (same processes) and their list change and resource update reach the
// streams; once the streams close, raw and fixture are released too. No clock is trusted: every step
// waits for a condition.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { fixtureServer, isAlive, npmServer, startHttpGateway, waitFor, writeConfig, type RunningGateway } from '../helpers/gateway.js';

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

describe('a listen stream holds the servers it listens to', () => {
  let gateway: RunningGateway;

  beforeAll(async () => {
    const config = await writeConfig(
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

  const pidsOf = (server: string) => gateway.log.records().filter((r) => r.msg === 'connected' && r.server === server).map((r) => Number(r.pid));

  it('HTTP: held while the streams are open (list change and resource update delivered), released after they close', { timeout: 90_000 }, async () => {
    const all = await modernClient(`${gateway.url}/mcp`);
    const raw = await modernClient(`${gateway.url}/s/raw/mcp`);
    try {
      await all.callTool({ name: 'raw_echo', arguments: {} });
      await all.callTool({ name: 'fixture_test_simple_text', arguments: {} });
      await all.callTool({ name: 'memory_read_graph', arguments: {} });
      const [rawPid, fixturePid, memoryPid] = await waitFor(() => {
        const pids = ['raw', 'fixture', 'memory'].map((server) => pidsOf(server)[0]);
        return pids.every((pid) => pid !== undefined) ? (pids as number[]) : undefined;
      }, 'the three servers to connect');

      let toolChanges = 0;
      raw.setNotificationHandler('notifications/tools/list_changed', () => void toolChanges++);
      const toolsStream = await raw.listen({ toolsListChanged: true });
      const updated: string[] = [];
      all.setNotificationHandler('notifications/resources/updated', (notification) => void updated.push(notification.params.uri));
      const resourceStream = await all.listen({ resourceSubscriptions: [WATCHED] });

      // An idle round passes: memory, which nothing holds, is stopped.
      await waitFor(() => !isAlive(memoryPid!), `server-memory (pid ${memoryPid}) to be released as idle`);
      expect(isAlive(rawPid!)).toBe(true);
      expect(isAlive(fixturePid!)).toBe(true);

      // The held servers are the same processes, and what they report reaches the streams.
      await raw.callTool({ name: 'add_tool', arguments: { name: 'added_while_held' } });
      await waitFor(() => toolChanges > 0, 'tools/list_changed on the listen stream');
      expect(text(await all.callTool({ name: 'fixture_test_trigger_resource_update', arguments: {} }))).toContain('subscribers notified');
      await waitFor(() => updated.includes(WATCHED), 'notifications/resources/updated on the listen stream');
      expect(pidsOf('raw')).toEqual([rawPid]);
      expect(pidsOf('fixture')).toEqual([fixturePid]);

      await toolsStream.close();
      await resourceStream.close();
      await waitFor(() => !isAlive(rawPid!) && !isAlive(fixturePid!), `raw (pid ${rawPid}) and fixture (pid ${fixturePid}) to be released once the streams closed`, 30_000);
    } finally {
      await raw.close();
      await all.close();
    }
  });
});
