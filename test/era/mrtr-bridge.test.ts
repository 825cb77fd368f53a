// The MRTR bridge end to end: server-everything (a 2025-era server) samples and elicits during a
// call from an SDK v2 client speaking 2026-07-28 with sampling and elicitation handlers. The
// gateway holds the server's request, answers the client with input_required and a sealed
// requestState, answers the server with the retry's inputResponses and returns the tool's result.
// A tampered or foreign requestState is refused, and a client without those capabilities is never
// presented to the server as having them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { npmServer, startHttpGateway, writeConfig, type RunningGateway } from '../helpers/gateway.js';
import { MODERN_META, postModern } from '../helpers/wire.js';

const CAPABLE = { sampling: {}, elicitation: {} };

function capableClient(name = 'bridge-test'): Client {
  const client = new Client({ name, version: '1.0.0' }, { capabilities: CAPABLE, versionNegotiation: { mode: { pin: '2026-07-28' } } });
  client.setRequestHandler('sampling/createMessage', async () => ({ role: 'assistant', content: { type: 'text', text: 'sampled by the modern client' }, model: 'stand-in', stopReason: 'endTurn' }));
  client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { name: 'Ada Lovelace', check: true } }));
  return client;
}

function text(result: unknown): string {
  return ((result as { content?: { text?: string }[] }).content ?? []).map((c) => c.text ?? '').join('\n');
}

describe('MRTR bridge: a legacy server asks a 2026-07-28 client through input_required', () => {
  let gateway: RunningGateway;

  beforeAll(async () => {
    gateway = await startHttpGateway(await writeConfig({ everything: npmServer('everything') }));
  }, 60_000);
  afterAll(async () => {
    await gateway?.close();
  });

  for (const endpoint of ['/mcp', '/s/everything/mcp']) {
    it(`relays sampling and elicitation on ${endpoint}`, { timeout: 90_000 }, async () => {
      const prefix = endpoint === '/mcp' ? 'everything_' : '';
      const client = capableClient();
      await client.connect(new StreamableHTTPClientTransport(new URL(`${gateway.url}${endpoint}`)));
      try {
        const names = (await client.listTools()).tools.map((t) => t.name);
        expect(names).toContain(`${prefix}trigger-sampling-request`);
        expect(names).toContain(`${prefix}trigger-elicitation-request`);
        const sampled = await client.callTool({ name: `${prefix}trigger-sampling-request`, arguments: { prompt: 'hello' } });
        expect(text(sampled)).toContain('sampled by the modern client');
        const elicited = await client.callTool({ name: `${prefix}trigger-elicitation-request`, arguments: {} });
        expect(text(elicited)).toContain('Name: Ada Lovelace');
      } finally {
        await client.close();
      }
    });
  }

  it('answers input_required with a sealed requestState; a tampered one and one from another client are refused', { timeout: 90_000 }, async () => {
    const capableMeta = { ...MODERN_META, 'io.modelcontextprotocol/clientCapabilities': CAPABLE };
    const call = { id: 1, method: 'tools/call', params: { name: 'everything_trigger-sampling-request', arguments: { prompt: 'raw' }, _meta: capableMeta } };
    const first = await postModern(`${gateway.url}/mcp`, call);
    expect(first.body?.result?.resultType).toBe('input_required');
    const inputRequests = first.body?.result?.inputRequests as Record<string, { method: string }>;
    const [key, question] = Object.entries(inputRequests)[0]!;
    expect(question.method).toBe('sampling/createMessage');
    const state = first.body?.result?.requestState as string;
    expect(typeof state).toBe('string');

    const answer = { role: 'assistant', content: { type: 'text', text: 'raw answer' }, model: 'm' };
    const tampered = await postModern(`${gateway.url}/mcp`, { id: 2, method: 'tools/call', params: { ...call.params, inputResponses: { [key]: answer }, requestState: `${state.slice(0, -2)}xx` } });
    expect(tampered.body?.error?.code).toBe(-32602);
    const otherClient = { ...capableMeta, 'io.modelcontextprotocol/clientInfo': { name: 'someone-else', version: '1.0.0' } };
    const foreign = await postModern(`${gateway.url}/mcp`, { id: 3, method: 'tools/call', params: { ...call.params, _meta: otherClient, inputResponses: { [key]: answer }, requestState: state } });
    expect(foreign.body?.error?.code).toBe(-32602);

    const retry = await postModern(`${gateway.url}/mcp`, { id: 4, method: 'tools/call', params: { ...call.params, inputResponses: { [key]: answer }, requestState: state } });
    expect(retry.body?.result?.resultType).toBe('complete');
    expect(text(retry.body?.result)).toContain('raw answer');
    // The handle is spent: the same state again continues nothing.
    const replay = await postModern(`${gateway.url}/mcp`, { id: 5, method: 'tools/call', params: { ...call.params, inputResponses: { [key]: answer }, requestState: state } });
    expect(replay.body?.error?.code).toBe(-32602);
  });

  it('never tells the server a client can sample when it did not declare it', { timeout: 60_000 }, async () => {
    const client = new Client({ name: 'plain', version: '1.0.0' }, { capabilities: {}, versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${gateway.url}/mcp`)));
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toContain('everything_echo');
      expect(names).not.toContain('everything_trigger-sampling-request');
      expect(names).not.toContain('everything_trigger-elicitation-request');
    } finally {
      await client.close();
    }
  });
});
