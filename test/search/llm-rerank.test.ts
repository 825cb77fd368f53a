// The llm re-ranking stage against a local stand-in speaking the real chat-completions wire format:
// the model's order is used (and the tools it left out follow in first-stage order), a slow model, an
// HTTP error and a malformed answer each fall back to the first stage with a note, answers are cached
// per query and catalog version, and the prompt is cut to its token budget.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OpenAiChatModel } from '../../src/search/rerank/chat.js';
import { LlmReranker, buildPrompt, DEFAULT_RERANK_OPTIONS } from '../../src/search/rerank/llm-rerank.js';
import { shownTools, startChatServer, type ChatStandIn } from '../fixtures/chat-server.js';

const candidates = ['read_file', 'write_file', 'list_directory', 'search_files', 'move_file'].map((name) => ({
  key: `fs_${name}`,
  server: 'fs',
  name,
  description: `${name.replace('_', ' ')} on the local disk`,
}));

describe('llm re-ranking through an OpenAI-compatible endpoint', () => {
  let standIn: ChatStandIn;
  let model: OpenAiChatModel;
  beforeAll(async () => {
    standIn = await startChatServer();
    model = new OpenAiChatModel({ baseUrl: standIn.baseUrl, model: 'stand-in-chat' });
  });
  afterAll(async () => standIn?.close());
  beforeEach(() => {
    standIn.requests.length = 0;
    standIn.behaviour = 'ok';
    standIn.answer = () => '[1]';
  });

  it('uses the order the model answers, then the candidates it left out in first-stage order', async () => {
    standIn.answer = () => 'Ranking: [4, 2]';
    const result = await new LlmReranker().rerank(model, 'find files named notes', candidates, 'v1');
    expect(result).toMatchObject({ stage: 'llm', cached: false });
    expect(result.keys).toEqual(['fs_search_files', 'fs_write_file', 'fs_read_file', 'fs_list_directory', 'fs_move_file']);
    const body = standIn.requests[0]!;
    expect(body.model).toBe('stand-in-chat');
    expect(body.max_tokens).toBe(DEFAULT_RERANK_OPTIONS.maxAnswerTokens);
    expect(body.messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(body.messages[1]!.content).toContain('Request: find files named notes');
    expect(shownTools(body)).toEqual(candidates.map((c) => c.name));
  });

  it('falls back to the first stage with a note when the model is slower than the timeout', async () => {
    standIn.behaviour = 'slow';
    standIn.slowMs = 1500;
    const started = Date.now();
    const result = await new LlmReranker({ timeoutMs: 200 }).rerank(model, 'read a file', candidates, 'v1');
    expect(Date.now() - started).toBeLessThan(1400); // did not wait for the answer
    expect(result.stage).toBe('first-stage');
    expect(result.keys).toEqual(candidates.map((c) => c.key));
    expect(result.note).toMatch(/openai:stand-in-chat.*timed out|no answer within 200 ms/);
  });

  it('falls back on a malformed answer, a body without choices and an HTTP error, and caches none of them', async () => {
    const reranker = new LlmReranker();
    standIn.answer = () => 'I would pick the file reader.';
    const prose = await reranker.rerank(model, 'read a file', candidates, 'v1');
    expect(prose).toMatchObject({ stage: 'first-stage', keys: candidates.map((c) => c.key) });
    expect(prose.note).toMatch(/no JSON array of numbers/);
    standIn.answer = () => '[9, 12]';
    expect((await reranker.rerank(model, 'read a file', candidates, 'v1')).note).toMatch(/names none of the 5 tools/);
    standIn.behaviour = 'not-chat';
    expect((await reranker.rerank(model, 'read a file', candidates, 'v1')).note).toMatch(/without choices\[0\]\.message\.content/);
    standIn.behaviour = 'http500';
    expect((await reranker.rerank(model, 'read a file', candidates, 'v1')).note).toMatch(/HTTP 500/);
    expect(standIn.requests).toHaveLength(4); // each failure asked again: failures are not cached
  });

  it('sends once more on a fresh connection when the first is dropped before any answer', async () => {
    standIn.behaviour = 'drop-once';
    standIn.answer = () => '[2]';
    const again = await new LlmReranker().rerank(model, 'write a file', candidates, 'v1');
    expect(again).toMatchObject({ stage: 'llm', keys: expect.arrayContaining(['fs_write_file']) });
    expect(again.keys[0]).toBe('fs_write_file');
    expect(standIn.requests).toHaveLength(2);
  });

  it('caches an answer per query and catalog version', async () => {
    const reranker = new LlmReranker();
    standIn.answer = () => '[3]';
    const first = await reranker.rerank(model, 'list a folder', candidates, 'v1');
    const again = await reranker.rerank(model, 'list a folder', candidates, 'v1');
    expect(first.keys[0]).toBe('fs_list_directory');
    expect(again).toMatchObject({ stage: 'llm', cached: true, keys: first.keys });
    expect(standIn.requests).toHaveLength(1);
    standIn.answer = () => '[5]';
    const otherVersion = await reranker.rerank(model, 'list a folder', candidates, 'v2');
    const otherQuery = await reranker.rerank(model, 'list the folder', candidates, 'v1');
    expect(otherVersion).toMatchObject({ cached: false });
    expect(otherVersion.keys[0]).toBe('fs_move_file');
    expect(otherQuery.keys[0]).toBe('fs_move_file');
    expect(standIn.requests).toHaveLength(3);
  });

  it('shows at most `candidates` tools and cuts the list to the prompt token budget', async () => {
    const many = Array.from({ length: 40 }, (_, i) => ({ key: `k${i}`, server: 's', name: `tool_${i}`, description: 'does a thing with many words in its description '.repeat(4) }));
    await new LlmReranker({ candidates: 25 }).rerank(model, 'a thing', many, 'v1');
    expect(shownTools(standIn.requests[0]!)).toHaveLength(25);
    const tight = buildPrompt('a thing', many, { ...DEFAULT_RERANK_OPTIONS, maxPromptTokens: 400 });
    expect(tight.shown).toBeGreaterThan(1);
    expect(tight.shown).toBeLessThan(40);
    expect(tight.text.split('\n').filter((l) => /^\d+\. /.test(l))).toHaveLength(tight.shown);
  });
});
