// recommend_tools in llm mode through a real gateway process over HTTP: with a configured chat endpoint
// (the local chat-completions stand-in) the model's order comes back and a repeat is answered from the
// cache; without one, MCP sampling is used only for a client that declared it (two real clients at
// once: one with sampling, one without, which gets the search order and a note).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { shownTools, startChatServer, type ChatStandIn } from '../fixtures/chat-server.js';
import { connectHttp, fixtureServer, newClient, startHttpGateway, waitFor, writeConfig, type ConnectedClient } from '../helpers/gateway.js';

const ANY = z.any();
type Json = Record<string, any>;

const recommend = (mode: string) => ({ method: 'tools/call', params: { name: 'recommend_tools', arguments: { task_description: 'return a deliberate tool error', top_k: 3, mode } } });

/**
 * Waits until the fault server's tools are listed (search-mode recommendations, which ask no model,
 * come back non-empty): on a loaded machine the gateway answers before a slow-starting server lists.
 */
async function untilListed(admin: ConnectedClient): Promise<void> {
  await waitFor(async () => ((await admin.client.request(recommend('search'), ANY)).structuredContent as Json).tools.length >= 2, 'the fault server listed');
}

describe('recommend_tools in llm mode', () => {
  let standIn: ChatStandIn;
  beforeAll(async () => {
    standIn = await startChatServer();
  });
  afterAll(async () => standIn?.close());

  it('re-ranks with the configured endpoint and caches the answer', async () => {
    const config = await writeConfig({ fault: fixtureServer('fault-server.ts') }, { search: { llm: { baseUrl: standIn.baseUrl, model: 'stand-in-chat', candidates: 6 } } });
    const gateway = await startHttpGateway(config);
    try {
      const admin = await connectHttp(gateway.url, newClient(), '/gateway/mcp');
      await untilListed(admin);
      // The model puts the last candidate it was shown first.
      standIn.answer = (body) => `[${shownTools(body).length}]`;
      const first = (await admin.client.request(recommend('llm'), ANY)).structuredContent as Json;
      const shown = shownTools(standIn.requests[0]!);
      expect(shown.length).toBeGreaterThanOrEqual(2);
      expect(shown.length).toBeLessThanOrEqual(6);
      expect(first).toMatchObject({ mode: 'llm', model: 'openai:stand-in-chat', cached: false });
      expect(first.tools[0].tool).toBe(shown[shown.length - 1]);
      const search = (await admin.client.request(recommend('search'), ANY)).structuredContent as Json;
      expect(search.mode).toBe('search');
      expect(search.tools[0].tool).toBe(shown[0]);
      const again = (await admin.client.request(recommend('llm'), ANY)).structuredContent as Json;
      expect(again).toMatchObject({ mode: 'llm', cached: true });
      expect(again.tools).toEqual(first.tools);
      expect(standIn.requests).toHaveLength(1);
      await admin.close();
    } finally {
      await gateway.close();
    }
  });

  it('uses sampling only for a client that declared it', async () => {
    const config = await writeConfig({ fault: fixtureServer('fault-server.ts') });
    const gateway = await startHttpGateway(config);
    try {
      const sampled: string[] = [];
      const withSampling = newClient({ sampling: {} });
      withSampling.setRequestHandler('sampling/createMessage', async (request) => {
        const text = (request.params.messages[0]!.content as { text: string }).text;
        sampled.push(text);
        return { model: 'client-model', role: 'assistant', content: { type: 'text', text: '[2, 1]' } };
      });
      const a = await connectHttp(gateway.url, withSampling, '/gateway/mcp');
      const b = await connectHttp(gateway.url, newClient(), '/gateway/mcp');
      await untilListed(b);
      const [viaSampling, plain] = await Promise.all([a.client.request(recommend('llm'), ANY), b.client.request(recommend('llm'), ANY)]);
      const search = (await b.client.request(recommend('search'), ANY)).structuredContent as Json;
      expect(sampled).toHaveLength(1);
      expect(sampled[0]).toContain('Request: return a deliberate tool error');
      expect(viaSampling.structuredContent).toMatchObject({ mode: 'llm', model: 'sampling' });
      const order = (viaSampling.structuredContent as Json).tools.map((t: Json) => t.toolKey);
      expect(order.slice(0, 2)).toEqual([search.tools[1].toolKey, search.tools[0].toolKey]);
      expect(plain.structuredContent).toMatchObject({ mode: 'search' });
      expect((plain.structuredContent as Json).note).toMatch(/no chat model for llm mode/);
      expect((plain.structuredContent as Json).tools).toEqual(search.tools);
      await a.close();
      await b.close();
    } finally {
      await gateway.close();
    }
  });
});
