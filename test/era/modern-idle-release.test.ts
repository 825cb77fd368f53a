// A downstream connection that only 2026-07-28 clients use (their sessions last one request) is
// released when no such request came for isolatedIdleMs, as a 2025 session's connections go when it
// idles out, and the next request starts it again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { isAlive, npmServer, startHttpGateway, waitFor, writeConfig, type RunningGateway } from '../helpers/gateway.js';

/**
 * What the gateway logs when it stops connections nobody used for isolatedIdleMs: the idle round's
 * lines, or the line of the boot discovery's release when that runs more than isolatedIdleMs after the
 * call (seen under CI load: the call answered early, the discovery round 2 s after start).
 */
const IDLE_RELEASES = [
  'connections only 2026-07-28 clients used are idle; stopped until the next request',
  'shared connections no session uses stopped',
  "connections no client session used lately stopped (started for a listing of the gateway's own)",
];

function modernClient(): Client {
  return new Client({ name: 'idle-release-test', version: '1.0.0' }, { capabilities: {}, versionNegotiation: { mode: { pin: '2026-07-28' } } });
}

describe('connections used only by 2026-07-28 clients', () => {
  let gateway: RunningGateway;

  beforeAll(async () => {
    gateway = await startHttpGateway(await writeConfig({ memory: npmServer('memory') }, { isolatedIdleMs: 1500 }));
  }, 60_000);
  afterAll(async () => {
    await gateway?.close();
  });

  const connectedPids = () => gateway.log.records().filter((r) => r.msg === 'connected' && r.server === 'memory').map((r) => Number(r.pid));

  it('stop once idle for isolatedIdleMs, and start again on the next request', { timeout: 60_000 }, async () => {
    const client = modernClient();
    await client.connect(new StreamableHTTPClientTransport(new URL(`${gateway.url}/mcp`)));
    try {
      expect(client.getProtocolEra()).toBe('modern');
      await client.callTool({ name: 'memory_read_graph', arguments: {} });
      const [first] = await waitFor(() => (connectedPids().length > 0 ? connectedPids() : undefined), 'server-memory to connect');
      expect(isAlive(first!)).toBe(true);

      // Which round stops it depends on timing (the connection the call used may be the one the
      // gateway's own first listing started, which the unused-shared round stops): the process must go.
      await waitFor(() => !isAlive(first!), `server-memory (pid ${first}) to exit once idle`);
      // The gateway logs once the stop has completed, and its log reaches the test through a pipe:
      // the line can arrive after the process is gone.
      await waitFor(() => gateway.log.records().some((r) => IDLE_RELEASES.includes(String(r.msg))) || undefined, 'the idle release to be logged');

      const again = await client.callTool({ name: 'memory_read_graph', arguments: {} });
      expect(again.isError).toBeFalsy();
      const pids = await waitFor(() => (connectedPids().length > 1 ? connectedPids() : undefined), 'server-memory to connect again');
      expect(isAlive(pids.at(-1)!)).toBe(true);
    } finally {
      await client.close();
    }
  });
});
