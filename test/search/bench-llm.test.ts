// The llm mode in `bench retrieval`: the first stage's top candidates re-ranked by a chat model over
// the real chat-completions wire format. Through the CLI against bench/chat-standin.mjs (a child
// process on 127.0.0.1): answering the first stage's own order scores exactly as the engine, answering
// it reversed moves the scores, a prose answer falls back on every query. Through runBench against the
// test stand-in: a model slower than the timeout falls back and is counted, never scored as llm.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBench, runBench } from '../../src/search/bench.js';
import { OpenAiChatModel } from '../../src/search/rerank/chat.js';
import { startChatServer } from '../fixtures/chat-server.js';
import { fixtureTools } from './fixtures.js';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../..');
const CLI = path.join(ROOT, 'bin/switchboard.js');

const QUERIES: Array<[string, string]> = [
  ['create an issue in a repository', 'github/create_issue'],
  ['read a file from disk', 'filesystem/read_file'],
  ['run a sql query', 'postgres/query'],
  ['take a screenshot of the page', 'puppeteer/puppeteer_screenshot'],
  ['remember a fact about a person', 'memory/create_entities'],
];

let folder: string;
const children: ChildProcess[] = [];

/** Starts bench/chat-standin.mjs answering `answer`; resolves with its base URL once it listens. */
async function startStandIn(answer: string): Promise<string> {
  const child = spawn(process.execPath, [path.join(ROOT, 'bench/chat-standin.mjs'), '--answer', answer], { stdio: ['ignore', 'ignore', 'pipe'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    let err = '';
    const deadline = setTimeout(() => reject(new Error(`stand-in did not listen within 20 s: ${err}`)), 20_000);
    child.stderr!.on('data', (chunk: Buffer) => {
      err += chunk.toString();
      const m = /listening (\S+)/.exec(err);
      if (m) {
        clearTimeout(deadline);
        resolve(m[1]!);
      }
    });
    child.on('exit', (code) => reject(new Error(`stand-in exited with ${code}: ${err}`)));
  });
}

beforeAll(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'switchboard-bench-llm-'));
  const tools = fixtureTools().map((t) => JSON.stringify({ server: t.server, name: t.name, description: t.description, inputSchema: t.inputSchema }));
  await writeFile(path.join(folder, 'tools.jsonl'), `${tools.join('\n')}\n`);
  const lines = QUERIES.map(([query, tool], i) => {
    const [server, name] = tool.split('/');
    return JSON.stringify({ id: `q${i}`, query, groups: [[{ server, name }]] });
  });
  await writeFile(path.join(folder, 'queries.jsonl'), `${lines.join('\n')}\n`);
});

afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
});

/** The R@1 R@5 MRR@10 columns of one engine's line of a --cross run. */
function row(out: string, engine: string): string {
  const line = out.split('\n').find((l) => l.split(/\s+/)[1] === engine);
  if (!line) throw new Error(`no ${engine} line in:\n${out}`);
  return line.split(/\s+/).slice(2, 5).join(' ');
}

describe('bench retrieval with the llm stage', () => {
  it('a model answering the first-stage order scores exactly as the engine; one answering it reversed moves the scores', async () => {
    const identity = await startStandIn('identity');
    const same = (await run(process.execPath, [CLI, 'bench', 'retrieval', '--cross', folder, '--llm-url', identity, '--llm-model', 'echo-order'])).stdout;
    expect(row(same, 'index+llm')).toBe(row(same, 'index'));
    expect(same).toMatch(/openai:echo-order: 4 of 4 answers used\)/);

    const reverse = await startStandIn('reverse');
    const moved = (await run(process.execPath, [CLI, 'bench', 'retrieval', '--cross', folder, '--llm-url', reverse, '--llm-model', 'upside-down'])).stdout;
    expect(row(moved, 'index')).toBe(row(same, 'index'));
    expect(Number(row(moved, 'index+llm').split(' ')[0])).toBeLessThan(Number(row(moved, 'index').split(' ')[0]));
  });

  it('a malformed answer falls back to the first stage on every query, and says so', async () => {
    const prose = await startStandIn('prose');
    const out = (await run(process.execPath, [CLI, 'bench', 'retrieval', '--tools', path.join(folder, 'tools.jsonl'), '--queries', path.join(folder, 'queries.jsonl'), '--llm-url', prose, '--llm-model', 'talker'])).stdout;
    expect(out).toMatch(/llm re-ranking of the top 25 by openai:talker \(0 of 4 answers used\)/);
    expect(out).toMatch(/warning: 4 queries answered lexically: llm re-ranking \(openai:talker\) failed: the model's answer holds no JSON array/);
  });

  it('rejects an llm stage without a model name, and one over another engine', async () => {
    const noModel = run(process.execPath, [CLI, 'bench', 'retrieval', '--cross', folder, '--llm-url', 'http://127.0.0.1:9/v1']);
    await expect(noModel).rejects.toMatchObject({ stderr: expect.stringMatching(/needs both --llm-url .* and --llm-model/) });
    const otherEngine = run(process.execPath, [CLI, 'bench', 'retrieval', '--cross', folder, '--engine', 'bm25', '--llm-url', 'http://127.0.0.1:9/v1', '--llm-model', 'm']);
    await expect(otherEngine).rejects.toMatchObject({ stderr: expect.stringMatching(/re-ranks the index engine/) });
  });

  it('a model slower than the timeout: every query keeps the first stage and is counted as degraded', async () => {
    const standIn = await startChatServer();
    try {
      standIn.behaviour = 'slow';
      standIn.slowMs = 3000;
      const input = loadBench(path.join(folder, 'tools.jsonl'), path.join(folder, 'queries.jsonl'));
      const model = new OpenAiChatModel({ baseUrl: standIn.baseUrl, model: 'sluggish' });
      const first = await runBench(input, { engine: 'index' });
      const slow = await runBench(input, { engine: 'index', llm: { model, options: { timeoutMs: 100 } } });
      expect(slow.llm).toEqual({ model: 'openai:sluggish', candidates: 25, asked: 4, reranked: 0 });
      expect(slow.degraded?.queries).toBe(4); // one query has a single candidate: nothing to ask
      expect(slow.degraded?.reason).toMatch(/no answer within 100 ms|timed out/);
      expect([slow.recall[1], slow.recall[5], slow.mrr10]).toEqual([first.recall[1], first.recall[5], first.mrr10]);
    } finally {
      await standIn.close();
    }
  });
});
