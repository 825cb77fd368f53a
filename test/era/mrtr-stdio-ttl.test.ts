// The MRTR bridge on the stdio face, and its expiry as a setting. A 2026-07-28 SDK v2 client that
// started the gateway over stdio calls server-everything's tools that sample and elicit: the
// gateway relays the server's requests as input_required and the client's handlers answer them.
// With `inputRequiredTtlMs` set, a call nobody continues expires (logged), and its requestState is
// refused afterwards.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/client';
import { connectStdio, npmServer, startHttpGateway, waitFor, writeConfig, type RunningGateway } from '../helpers/gateway.js';
import { MODERN_META, postModern } from '../helpers/wire.js';

const CAPABLE = { sampling: {}, elicitation: {} };

function text(result: unknown): string {
  return ((result as { content?: { text?: string }[] }).content ?? []).map((c) => c.text ?? '').join('\n');
}

describe('MRTR bridge on the stdio face', () => {
  it('a modern stdio client answers a 2025 server\'s sampling and elicitation through input_required', { timeout: 90_000 }, async () => {
    const client = new Client({ name: 'stdio-bridge-test', version: '1.0.0' }, { capabilities: CAPABLE, versionNegotiation: { mode: { pin: '2026-07-28' } } });
    const asked: string[] = [];
    client.setRequestHandler('sampling/createMessage', async () => {
      asked.push('sampling');
      return { role: 'assistant', content: { type: 'text', text: 'sampled over stdio' }, model: 'stand-in', stopReason: 'endTurn' };
    });
    client.setRequestHandler('elicitation/create', async () => {
      asked.push('elicitation');
      return { action: 'accept', content: { name: 'Grace Hopper', check: true } };
    });
    const connected = await connectStdio(await writeConfig({ everything: npmServer('everything') }), client);
    try {
      expect(client.getProtocolEra()).toBe('modern');
      const sampled = await client.callTool({ name: 'everything_trigger-sampling-request', arguments: { prompt: 'hello' } });
      expect(text(sampled)).toContain('sampled over stdio');
      const elicited = await client.callTool({ name: 'everything_trigger-elicitation-request', arguments: {} });
      expect(text(elicited)).toContain('Name: Grace Hopper');
      expect(asked).toEqual(['sampling', 'elicitation']);
      // The answers travelled as input_required rounds of the bridge, not as requests on the stdio pipe.
      expect(connected.log!.records().filter((r) => r.msg === 'reverse request' && r.bridged === true).length).toBeGreaterThanOrEqual(2);
    } finally {
      await connected.close();
    }
  });
});

describe('inputRequiredTtlMs', () => {
  let gateway: RunningGateway;

  beforeAll(async () => {
    gateway = await startHttpGateway(await writeConfig({ everything: npmServer('everything') }, { inputRequiredTtlMs: 1000 }));
  }, 60_000);
  afterAll(async () => {
    await gateway?.close();
  });

  it('a call not continued within the setting expires, and its requestState is refused', { timeout: 60_000 }, async () => {
    const meta = { ...MODERN_META, 'io.modelcontextprotocol/clientCapabilities': CAPABLE };
    const call = { id: 1, method: 'tools/call', params: { name: 'everything_trigger-sampling-request', arguments: { prompt: 'never answered' }, _meta: meta } };
    const first = await postModern(`${gateway.url}/mcp`, call);
    expect(first.body?.result?.resultType).toBe('input_required');
    const [key] = Object.keys(first.body?.result?.inputRequests as Record<string, unknown>);
    const state = first.body?.result?.requestState as string;

    const expired = await waitFor(() => gateway.log.records().find((r) => String(r.msg).startsWith('input_required call expired')), 'the bridged call to expire');
    expect(expired.ttlMs).toBe(1000);
    const late = await postModern(`${gateway.url}/mcp`, { id: 2, method: 'tools/call', params: { ...call.params, inputResponses: { [key!]: { role: 'assistant', content: { type: 'text', text: 'too late' }, model: 'm' } }, requestState: state } });
    expect(late.body?.error?.code).toBe(-32602);
  });
});
