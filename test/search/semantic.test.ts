// Semantic and hybrid search against a local stand-in embeddings endpoint over real HTTP, with
// vectors cached in a real SQLite store: the wire format both ways, batching, the key from an
// environment variable, typed errors, re-embedding only what changed, fusion, and the fallback to
// lexical search (with a reason) when the provider fails, hangs or answers garbage.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SearchEngine } from '../../src/search/engine.js';
import { reciprocalRankFusion } from '../../src/search/hybrid.js';
import { EmbeddingError, OpenAiCompatibleProvider } from '../../src/search/semantic/provider.js';
import { SemanticIndex } from '../../src/search/semantic/semantic-index.js';
import { openDatabase, type Store } from '../../src/store/index.js';
import { startEmbeddingServer, type EmbeddingStandIn } from '../fixtures/embedding-server.js';
import { fixtureTools } from './fixtures.js';

const tools = fixtureTools()!;

let standIn: EmbeddingStandIn;
beforeAll(async () => {
  standIn = await startEmbeddingServer();
});
afterAll(async () => standIn?.close());
beforeEach(() => {
  standIn.fail('none');
  standIn.requests.length = 0;
});

describe('OpenAI-compatible provider', () => {
  it('batches, places vectors by index and sends the key from the named environment variable', async () => {
    const provider = new OpenAiCompatibleProvider({ baseUrl: `${standIn.baseUrl}/`, model: 'stand-in', apiKeyEnv: 'SB_TEST_KEY', batchSize: 2 }, { SB_TEST_KEY: 'sk-test' });
    const vectors = await provider.embed(['weather forecast', 'rain', 'create an issue', 'write a file', 'slack message']);
    expect(vectors).toHaveLength(5);
    expect(standIn.requests.map((r) => r.input.length)).toEqual([2, 2, 1]);
    expect(standIn.requests.every((r) => r.authorization === 'Bearer sk-test' && r.model === 'stand-in')).toBe(true);
    // Answers come back in reverse order; the vector of text i must still be at i.
    const again = await provider.embed(['rain']);
    expect([...again[0]!]).toEqual([...vectors[1]!]);
    expect(provider.endpoint).toBe(`${standIn.baseUrl}/embeddings`);
  });

  it('fails with typed, actionable errors', async () => {
    const missingKey = new OpenAiCompatibleProvider({ baseUrl: standIn.baseUrl, model: 'm', apiKeyEnv: 'SB_UNSET_KEY' }, {});
    await expect(missingKey.embed(['x'])).rejects.toMatchObject({ code: 'missing_key', message: expect.stringContaining('SB_UNSET_KEY') });

    const provider = new OpenAiCompatibleProvider({ baseUrl: standIn.baseUrl, model: 'm', timeoutMs: 300 });
    standIn.fail('http500');
    await expect(provider.embed(['x'])).rejects.toMatchObject({ code: 'http_error', status: 500, message: expect.stringContaining('model not loaded') });
    standIn.fail('garbage');
    await expect(provider.embed(['x'])).rejects.toMatchObject({ code: 'bad_response' });
    standIn.fail('hang');
    await expect(provider.embed(['x'])).rejects.toMatchObject({ code: 'timeout', message: expect.stringContaining('300 ms') });

    const closed = new OpenAiCompatibleProvider({ baseUrl: 'http://127.0.0.1:9/v1', model: 'm' });
    const error = await closed.embed(['x']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EmbeddingError);
    expect((error as EmbeddingError).code).toBe('unreachable');
    expect((error as Error).message).toContain('http://127.0.0.1:9/v1/embeddings');
  });
});

describe('semantic index with vectors in the store', () => {
  let dir: string;
  let store: Store;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'switchboard-semantic-'));
    store = openDatabase(dir);
  });
  afterEach(async () => {
    store.close();
    await rm(dir, { recursive: true, force: true });
  });

  const provider = () => new OpenAiCompatibleProvider({ baseUrl: standIn.baseUrl, model: 'stand-in' });

  it('embeds each tool once, reuses stored vectors after a restart, and re-embeds only a changed tool', async () => {
    const first = new SemanticIndex(provider(), store.vectors);
    first.sync(tools);
    const report = await first.embedAll();
    expect(report).toMatchObject({ tools: tools.length, fromCache: 0 });
    const sent = standIn.requests.flatMap((r) => r.input);
    expect(new Set(sent).size).toBe(sent.length); // no text sent twice
    expect(store.vectors.count('stand-in')).toBe(report.requested);

    standIn.requests.length = 0;
    const restarted = new SemanticIndex(provider(), store.vectors);
    restarted.sync(tools);
    expect(await restarted.embedAll()).toMatchObject({ requested: 0, fromCache: tools.length });
    expect(standIn.requests).toHaveLength(0);

    const changed = tools.map((t) => (t.key === 'github_create_issue' ? { ...t, description: 'Open a new bug report in a repository' } : t));
    restarted.sync(changed);
    expect(restarted.pending).toBe(1);
    expect(await restarted.embedAll()).toMatchObject({ requested: 1, fromCache: 0 });
    expect(standIn.requests.flatMap((r) => r.input)).toEqual([expect.stringContaining('Open a new bug report')]);

    standIn.requests.length = 0;
    expect(await restarted.embedAll({ force: true })).toMatchObject({ requested: tools.length });
  });

  it('finds by meaning what shares no word with the query, and hybrid keeps lexical matches', async () => {
    const engine = new SearchEngine({ semantic: new SemanticIndex(provider(), store.vectors) });
    engine.sync(tools);
    // Lexically this query matches no messaging tool; the stand-in model knows "tell" ~ "message".
    const query = 'tell the team the build is done';
    const lexical = await engine.search(query, { mode: 'lexical', limit: 5 });
    expect(lexical.hits.some((h) => h.server === 'slack')).toBe(false);
    const semantic = await engine.search(query, { mode: 'semantic', limit: 5 });
    expect(semantic.mode).toBe('semantic');
    expect(semantic.hits.slice(0, 3).map((h) => h.server)).toContain('slack');
    const hybrid = await engine.search(query, { mode: 'hybrid', limit: 10 });
    expect(hybrid.mode).toBe('hybrid');
    expect(hybrid.hits.some((h) => h.server === 'slack')).toBe(true);
    expect(hybrid.hits.map((h) => h.key)).toContain(lexical.hits[0]!.key);
    // Filters apply to both sides.
    const scoped = await engine.search(query, { mode: 'hybrid', limit: 10, server: 'github' });
    expect(scoped.hits.length).toBeGreaterThan(0);
    expect(scoped.hits.every((h) => h.server === 'github')).toBe(true);
    expect((await engine.search('create an issue', { mode: 'hybrid', limit: 3 })).hits[0]!.key).toMatch(/_create_issue$/);
  });

  it('falls back to lexical search, saying why, when the provider fails, and recovers after the cooldown', async () => {
    let now = 1_000_000;
    const engine = new SearchEngine({ semantic: new SemanticIndex(provider(), store.vectors, () => now) });
    engine.sync(tools);
    standIn.fail('http500');
    const down = await engine.search('create an issue', { mode: 'hybrid', limit: 3 });
    expect(down.mode).toBe('lexical');
    expect(down.requested).toBe('hybrid');
    expect(down.degraded).toMatch(/semantic search unavailable: .*HTTP 500/);
    expect(down.hits[0]!.key).toMatch(/_create_issue$/);
    standIn.fail('none');
    now += 5_000; // still cooling down: no new attempt
    const before = standIn.requests.length;
    expect((await engine.search('create an issue', { mode: 'semantic' })).mode).toBe('lexical');
    expect(standIn.requests.length).toBe(before);
    now += 60_000;
    const back = await engine.search('create an issue', { mode: 'semantic', limit: 3 });
    expect(back.mode).toBe('semantic');
    expect(back.degraded).toBeUndefined();
  });

  it('a query the endpoint refuses (HTTP 400) falls back for that search only, without pausing semantic search', async () => {
    const engine = new SearchEngine({ semantic: new SemanticIndex(provider(), store.vectors) });
    engine.sync(tools);
    expect((await engine.search('read a file', { mode: 'semantic' })).mode).toBe('semantic');
    standIn.fail('http400');
    const refused = await engine.search('an overly long query', { mode: 'hybrid' });
    expect(refused).toMatchObject({ mode: 'lexical', degraded: expect.stringContaining('HTTP 400') });
    standIn.fail('none');
    expect((await engine.search('write a file', { mode: 'semantic' })).mode).toBe('semantic'); // no cooldown
    // Scores are never negative: relevance is a share of the best score and priors multiply it.
    const all = await engine.search('zzzz qqqq', { mode: 'semantic', limit: tools.length });
    expect(all.hits.every((h) => h.score >= 0)).toBe(true);
  });

  it('answers lexically when the endpoint is too slow to embed the query', async () => {
    const engine = new SearchEngine({ semantic: new SemanticIndex(new OpenAiCompatibleProvider({ baseUrl: standIn.baseUrl, model: 'stand-in', timeoutMs: 1500 }), store.vectors) });
    engine.sync(tools);
    await engine.semantic!.embedAll();
    standIn.fail('hang');
    const slow = await engine.search('a new query', { mode: 'semantic', waitMs: 100 });
    expect(slow).toMatchObject({ mode: 'lexical', degraded: expect.stringContaining('within 100 ms') });
    standIn.fail('none');
    await new Promise((resolve) => setTimeout(resolve, 1600)); // the hung request times out before the stand-in closes
  });

  it('answers lexically while a large catalog is still being embedded', async () => {
    standIn.fail('hang');
    const slow = new SemanticIndex(new OpenAiCompatibleProvider({ baseUrl: standIn.baseUrl, model: 'stand-in', timeoutMs: 2000 }), undefined);
    const engine = new SearchEngine({ semantic: slow });
    engine.sync(tools);
    const result = await engine.search('read a file', { mode: 'hybrid', waitMs: 50 });
    expect(result.mode).toBe('lexical');
    expect(result.degraded).toMatch(/still building \(0 of \d+ tools embedded\)/);
    standIn.fail('none');
    await slow.embedAll().catch(() => undefined); // let the hung request time out before the stand-in closes
  });

  it('without a provider, semantic requests say so and answer lexically', async () => {
    const engine = new SearchEngine();
    engine.sync(tools);
    const result = await engine.search('create an issue', { mode: 'semantic' });
    expect(result).toMatchObject({ requested: 'semantic', mode: 'lexical', degraded: expect.stringContaining('settings.search.embeddings') });
  });
});

describe('reciprocal rank fusion', () => {
  it('adds 1/(k+rank) per list, counts a key once per list and breaks ties by first appearance', () => {
    const fused = reciprocalRankFusion([[{ key: 'a' }, { key: 'b' }, { key: 'a' }], [{ key: 'b' }, { key: 'c' }]], { k: 1 });
    expect(fused.map((f) => f.key)).toEqual(['b', 'a', 'c']);
    expect(fused[0]).toEqual({ key: 'b', score: 1 / 3 + 1 / 2, ranks: [2, 1] });
    expect(fused[1]).toEqual({ key: 'a', score: 1 / 2, ranks: [1, undefined] });
    expect(fused[2]!.score).toBeCloseTo(1 / 3);
  });
});
