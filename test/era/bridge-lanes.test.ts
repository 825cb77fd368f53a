// Bridged calls (a 2026-07-28 client that can sample or elicit) run on a downstream connection of
// their own; the first one starts a warm spare for the next call of the same client, server and
// capabilities, and a call that ends hands its connection back, so calls one after another start
// no process. A lane never passes to another client, and an idle spare is stopped after
// isolatedIdleMs. The timings are printed (the latency is measured by bench/, not asserted here).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { npmServer, startHttpGateway, waitFor, writeConfig, type RunningGateway } from '../helpers/gateway.js';

async function capableClient(url: string, name: string): Promise<Client> {
  const client = new Client({ name, version: '1.0.0' }, { capabilities: { sampling: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } });
  client.setRequestHandler('sampling/createMessage', async () => ({ role: 'assistant', content: { type: 'text', text: 'sampled' }, model: 'stand-in', stopReason: 'endTurn' }));
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

interface ConnectionRow {
  profile: string;
  state: string;
  pid: number | null;
}

describe('warm connections for bridged calls', () => {
  let gateway: RunningGateway;

  beforeAll(async () => {
    gateway = await startHttpGateway(await writeConfig({ everything: npmServer('everything') }, { isolatedIdleMs: 3000 }));
  }, 60_000);
  afterAll(async () => {
    await gateway?.close();
  });

  const starts = () => gateway.log.records().filter((r) => r.msg === 'connected' && r.server === 'everything').length;
  const lanes = () => gateway.log.records().filter((r) => r.msg === 'bridged call lane').map((r) => r.warm as boolean);
  async function laneConnections(): Promise<ConnectionRow[]> {
    const { servers } = (await (await fetch(`${gateway.url}/api/servers`)).json()) as { servers: Array<{ key: string; connections: ConnectionRow[] }> };
    return servers.find((s) => s.key === 'everything')!.connections.filter((c) => c.profile.includes('@') && c.state !== 'stopped');
  }

  it('calls one after another run warm; another client gets lanes of its own; idle spares stop', { timeout: 120_000 }, async () => {
    const first = await capableClient(`${gateway.url}/mcp`, 'lanes-client-a');
    const other = await capableClient(`${gateway.url}/mcp`, 'lanes-client-b');
    try {
      const call = async (client: Client) => {
        const started = performance.now();
        const result = await client.callTool({ name: 'everything_trigger-sampling-request', arguments: { prompt: 'hi' } });
        expect(JSON.stringify(result.content)).toContain('sampled');
        return Math.round(performance.now() - started);
      };
      const cold = await call(first);
      expect(lanes()).toEqual([false]);
      // The spare the first call started is up, and the first call's own connection is gone (one spare at most).
      await waitFor(async () => {
        const up = await laneConnections();
        return up.length === 1 && up[0]!.state === 'connected';
      }, 'one warm spare');
      const startsBefore = starts();
      const warm = [await call(first), await call(first)];
      expect(lanes()).toEqual([false, true, true]);
      expect(starts()).toBe(startsBefore);
      console.log(`bridged call: cold ${cold} ms, warm ${warm.join(' ms, ')} ms`);

      await call(other);
      expect(lanes()).toEqual([false, true, true, false]);

      await waitFor(async () => (await laneConnections()).length === 0, 'the idle spares to stop', 30_000);
    } finally {
      await first.close();
      await other.close();
    }
  });
});
