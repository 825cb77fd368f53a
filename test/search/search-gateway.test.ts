// Tool search through a real gateway process over HTTP: hybrid search with a local stand-in
// embeddings endpoint, POST /api/tools/embed (vectors kept in the store across restarts), the
// lexical fallback with its reason when the endpoint fails, category and mode on search_tools,
// success-rate priors from recorded calls, and learning from use (a meta-mode search followed by a
// call of a tool it showed teaches that tool the query, stored and used after a restart).
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openDatabase } from '../../src/store/index.js';
import { startEmbeddingServer, type EmbeddingStandIn } from '../fixtures/embedding-server.js';
import { connectHttp, fixtureServer, newClient, startHttpGateway, waitFor, writeConfig } from '../helpers/gateway.js';

const ANY = z.any();
type Json = Record<string, any>;

async function post(url: string, body: unknown): Promise<{ status: number; json: Json }> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, json: (await response.json()) as Json };
}

const twins = () => ({ fault: fixtureServer('fault-server.ts'), spare: fixtureServer('fault-server.ts') });

describe('hybrid search with an embeddings endpoint', () => {
  let standIn: EmbeddingStandIn;
  beforeAll(async () => {
    standIn = await startEmbeddingServer();
  });
  afterAll(async () => standIn?.close());

  it('embeds once, searches in every mode, keeps vectors across restarts and falls back to lexical when the endpoint fails', async () => {
    const config = await writeConfig(twins(), { search: { embeddings: { baseUrl: standIn.baseUrl, model: 'stand-in', batchSize: 8 } }, http: { unauthenticatedAdmin: true } });
    let gateway = await startHttpGateway(config);
    try {
      // serve embeds every tool in the background once the servers are listed.
      const startup = await waitFor(() => gateway.log.records().find((r) => r.msg === 'tools embedded'), 'the start-up embedding');
      expect(startup).toMatchObject({ model: 'stand-in', endpoint: `${standIn.baseUrl}/embeddings`, fromCache: 0 });
      expect(startup.tools).toBe(20); // 10 valid tools per twin (bad_schema is left out by the catalog)
      expect(startup.requested).toBe(20); // each text once (the server name is part of it)
      expect(standIn.requests.every((r) => r.input.length <= 8)).toBe(true);
      const embedded = await post(`${gateway.url}/api/tools/embed`, {});
      expect(embedded.status).toBe(200);
      expect(embedded.json).toMatchObject({ tools: 20, requested: 0 });

      const hybrid = await post(`${gateway.url}/api/tools/search`, { query: 'process id', top_k: 4 });
      expect(hybrid.json.mode).toBe('hybrid');
      expect(hybrid.json.tools.slice(0, 2).map((t: Json) => t.tool)).toEqual(['pid', 'pid']);
      const semantic = await post(`${gateway.url}/api/tools/search`, { query: 'process id', mode: 'semantic', top_k: 2 });
      expect(semantic.json.mode).toBe('semantic');
      expect(semantic.json.tools[0].tool).toBe('pid');
      const bad = await post(`${gateway.url}/api/tools/search`, { query: 'x', mode: 'vector' });
      expect(bad.status).toBe(400);
      expect(bad.json.error).toContain('mode');

      standIn.fail('http500');
      // A query seen before is answered from the query-vector cache; a new one needs the endpoint.
      expect((await post(`${gateway.url}/api/tools/search`, { query: 'process id' })).json.mode).toBe('hybrid');
      const degraded = await post(`${gateway.url}/api/tools/search`, { query: 'the process id', mode: 'hybrid' });
      expect(degraded.json.mode).toBe('lexical');
      expect(degraded.json.note).toMatch(/semantic search unavailable: .*HTTP 500.*lexical results/);
      expect(degraded.json.tools[0].tool).toBe('pid');
      const failedEmbed = await post(`${gateway.url}/api/tools/embed`, { force: true });
      expect(failedEmbed.status).toBe(502);
      expect(failedEmbed.json).toMatchObject({ code: 'http_error', error: expect.stringContaining(standIn.baseUrl) });
      standIn.fail('none');
    } finally {
      await gateway.close();
    }

    standIn.requests.length = 0;
    gateway = await startHttpGateway(config);
    try {
      const again = await waitFor(() => gateway.log.records().find((r) => r.msg === 'tools embedded'), 'the start-up embedding');
      expect(again).toMatchObject({ requested: 0, fromCache: 20 });
      expect(standIn.requests).toHaveLength(0);
      const forced = await post(`${gateway.url}/api/tools/embed`, { force: true });
      expect(forced.json.requested).toBe(20);

      const admin = await connectHttp(gateway.url, newClient(), '/gateway/mcp');
      try {
        const search = async (args: Json) => (await admin.client.request({ method: 'tools/call', params: { name: 'search_tools', arguments: args } }, ANY)).structuredContent as Json;
        const all = await search({ query: 'answers', mode: 'lexical', top_k: 20 });
        const categories = new Set(all.tools.map((t: Json) => t.category as string));
        expect(categories.size).toBeGreaterThan(1);
        const category = all.tools[all.tools.length - 1].category as string;
        const answer = await search({ query: 'answers', mode: 'lexical', top_k: 20, category });
        expect(answer.mode).toBe('lexical');
        expect(answer.tools.length).toBe(all.tools.filter((t: Json) => t.category === category).length);
        expect(answer.tools.every((t: Json) => t.category === category)).toBe(true);
      } finally {
        await admin.close();
      }
    } finally {
      await gateway.close();
    }
  });

  it('answers 409 to /api/tools/embed when no endpoint is configured', async () => {
    const gateway = await startHttpGateway(await writeConfig({ fault: fixtureServer('fault-server.ts') }, { http: { unauthenticatedAdmin: true } }));
    try {
      const response = await post(`${gateway.url}/api/tools/embed`, {});
      expect(response.status).toBe(409);
      expect(response.json.error).toContain('search');
      const search = await post(`${gateway.url}/api/tools/search`, { query: 'process id', mode: 'semantic' });
      expect(search.json).toMatchObject({ mode: 'lexical', note: expect.stringContaining('no embedding provider') });
    } finally {
      await gateway.close();
    }
  });
});

describe('priors and learning from use', () => {
  it('ranks a twin that keeps failing below the one that works, without hiding it', async () => {
    const gateway = await startHttpGateway(await writeConfig(twins()));
    const user = await connectHttp(gateway.url, newClient());
    try {
      const before = await post(`${gateway.url}/api/tools/search`, { query: 'deliberate tool error', top_k: 2 });
      expect(before.json.tools.map((t: Json) => t.name)).toEqual(['fault_tool_error', 'spare_tool_error']); // a tie: configuration order
      for (let i = 0; i < 6; i++) {
        const result = await user.client.request({ method: 'tools/call', params: { name: 'fault_tool_error', arguments: {} } }, ANY);
        expect(result.isError).toBe(true);
      }
      await user.client.request({ method: 'tools/call', params: { name: 'spare_tool_error', arguments: {} } }, ANY);
      // Priors are re-read at most every 10 s; a fresh search after that sees the failures.
      await new Promise((resolve) => setTimeout(resolve, 10_500));
      const after = await post(`${gateway.url}/api/tools/search`, { query: 'deliberate tool error', top_k: 2 });
      expect(after.json.tools.map((t: Json) => t.name)).toEqual(['spare_tool_error', 'fault_tool_error']);
      const [spare, fault] = after.json.tools as Json[];
      expect(fault.score).toBeGreaterThan(0.8 * spare.score);
    } finally {
      await user.close();
      await gateway.close();
    }
  }, 60_000);

  it('teaches a tool the query of meta-mode searches that led to successful calls in two sessions (one alone cannot), and remembers it after a restart', async () => {
    const config = await writeConfig(twins(), { mode: 'meta' });
    const discover = async (client: Json['client'], query: string) =>
      ((await client.request({ method: 'tools/call', params: { name: 'tool_discovery', arguments: { query, detailLevel: 'minimal', maxResults: 2 } } }, ANY)).structuredContent as Json).tools.map((t: Json) => t.toolKey);

    let gateway = await startHttpGateway(config);
    let user = await connectHttp(gateway.url, newClient());
    try {
      const shown = await discover(user.client, 'which process answers');
      expect(shown).toEqual(['fault_pid', 'spare_pid']);
      // A tool the search did not show teaches nothing; a shown one that is called does.
      await user.client.request({ method: 'tools/call', params: { name: 'tool_execute', arguments: { toolKey: 'spare_ok', arguments: {} } } }, ANY);
      const result = await user.client.request({ method: 'tools/call', params: { name: 'tool_execute', arguments: { toolKey: 'spare_pid', arguments: {} } } }, ANY);
      expect(result.isError).not.toBe(true);
      // One session cannot teach the shared index alone (limits.learningQuorum, default 2).
      expect((await discover(user.client, 'which process answers')).slice(0, 2)).toEqual(['fault_pid', 'spare_pid']);
      const second = await connectHttp(gateway.url, newClient());
      expect(await discover(second.client, 'which process answers')).toEqual(['fault_pid', 'spare_pid']);
      await second.client.request({ method: 'tools/call', params: { name: 'tool_execute', arguments: { toolKey: 'spare_pid', arguments: {} } } }, ANY);
      await second.close();
      expect((await discover(user.client, 'which process answers')).slice(0, 2)).toEqual(['spare_pid', 'fault_pid']);
    } finally {
      await user.close();
      await gateway.close();
    }

    const store = openDatabase(path.join(path.dirname(config), 'data'));
    try {
      const learned = store.learnedQueries.all();
      expect(learned.map((q) => [q.server, q.tool, q.query])).toEqual([['spare', 'pid', 'which process answers']]);
      expect(learned[0]!.weight).toBeCloseTo(2, 5); // two teachers; fading with a 30-day half-life: seconds change nothing visible
    } finally {
      store.close();
    }

    gateway = await startHttpGateway(config);
    user = await connectHttp(gateway.url, newClient());
    try {
      expect((await discover(user.client, 'which process answers')).slice(0, 2)).toEqual(['spare_pid', 'fault_pid']);
    } finally {
      await user.close();
      await gateway.close();
    }
  }, 60_000);
});
