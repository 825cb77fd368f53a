// The retrieval benchmark in every mode on a small set written to disk in the eval format: lexical
// through the gateway's engine, semantic and hybrid against the local stand-in embeddings endpoint
// (every tool embedded once, queries scored), the train split fed through learning from use, and an
// endpoint failure reported as degraded queries instead of silently changing the numbers.
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBench, runBench, splitQueries } from '../../src/search/bench.js';
import { startEmbeddingServer, type EmbeddingStandIn } from '../fixtures/embedding-server.js';
import { fixtureTools } from './fixtures.js';

const QUERIES: Array<[string, string, string]> = [
  ['q1', 'create an issue in a repository', 'github/create_issue'],
  ['q2', 'tell the team on slack that the build is done', 'slack/slack_post_message'],
  ['q3', 'take a screenshot of the page', 'puppeteer/puppeteer_screenshot'],
  ['q4', 'read a file from disk', 'filesystem/read_file'],
  ['q5', 'run a sql query', 'postgres/query'],
  ['q6', 'remember a fact about a person', 'memory/create_entities'],
];

let standIn: EmbeddingStandIn;
let files: { tools: string; queries: string };
beforeAll(async () => {
  standIn = await startEmbeddingServer();
  const dir = await mkdtemp(path.join(os.tmpdir(), 'switchboard-bench-'));
  const tools = fixtureTools()!.map((t) => JSON.stringify({ server: t.server, name: t.name, description: t.description, inputSchema: t.inputSchema }));
  const queries = QUERIES.map(([id, query, tool]) => {
    const [server, name] = tool.split('/');
    return JSON.stringify({ id, query, groups: [[{ server, name }]] });
  });
  files = { tools: path.join(dir, 'tools.jsonl'), queries: path.join(dir, 'queries.jsonl') };
  await writeFile(files.tools, `${tools.join('\n')}\n`);
  await writeFile(files.queries, `${queries.join('\n')}\n`);
});
afterAll(async () => standIn?.close());

describe('bench retrieval modes', () => {
  it('scores lexical, semantic and hybrid runs of the same set', async () => {
    const input = loadBench(files.tools, files.queries);
    expect(input.tools.length).toBe(fixtureTools()!.length);
    const lexical = await runBench(input, { engine: 'index' });
    expect(lexical).toMatchObject({ mode: 'lexical', queries: 6 });
    expect(lexical.embedMs).toBeUndefined();
    expect(lexical.recall[10]).toBeGreaterThanOrEqual(5 / 6);

    standIn.requests.length = 0;
    const embeddings = { baseUrl: standIn.baseUrl, model: 'stand-in' };
    const progress: number[] = [];
    const semantic = await runBench(input, { engine: 'index', mode: 'semantic', embeddings, onProgress: (done) => progress.push(done) });
    expect(semantic.mode).toBe('semantic');
    expect(semantic.degraded).toBeUndefined();
    expect(semantic.embedMs).toBeGreaterThan(0);
    expect(progress.at(-1)).toBe(input.tools.length);
    const embedded = standIn.requests.flatMap((r) => r.input);
    expect(embedded.length).toBe(input.tools.length + 6); // every tool once, then each query once (warm-up; scoring reuses its vector)
    expect(semantic.recall[10]).toBeGreaterThan(0);

    const hybrid = await runBench(input, { engine: 'index', mode: 'hybrid', embeddings });
    expect(hybrid.mode).toBe('hybrid');
    expect(hybrid.recall[10]).toBeGreaterThanOrEqual(lexical.recall[10]! - 1 / 6);
  });

  it('fails when the tools cannot be embedded, and reports queries answered lexically when only the queries fail', async () => {
    const input0 = loadBench(files.tools, files.queries);
    standIn.fail('http500');
    await expect(runBench(input0, { engine: 'index', mode: 'semantic', embeddings: { baseUrl: standIn.baseUrl, model: 'stand-in-1' } })).rejects.toMatchObject({ code: 'http_error' });

    const input = loadBench(files.tools, files.queries);
    standIn.fail('none');
    const result = await runBench(input, {
      engine: 'index',
      mode: 'hybrid',
      embeddings: { baseUrl: standIn.baseUrl, model: 'stand-in-2' },
      onProgress: (done, total) => {
        if (done === total) standIn.fail('http500'); // every tool embedded; every query then fails
      },
    });
    standIn.fail('none');
    expect(result.degraded).toMatchObject({ queries: 6, reason: expect.stringContaining('HTTP 500') });
    expect(result.recall[10]).toBeGreaterThanOrEqual(5 / 6); // the lexical answers still scored
  });

  it('splits deterministically and feeds the train part through learning from use', async () => {
    const input = loadBench(files.tools, files.queries);
    const [train, held] = splitQueries(input.queries, 0.5);
    expect(train.length + held.length).toBe(6);
    expect(splitQueries(input.queries, 0.5)).toEqual([train, held]);
    const result = await runBench(input, { engine: 'index', trainSplit: 0.5 });
    expect(result).toMatchObject({ trainQueries: train.length, queries: held.length });
  });
});
