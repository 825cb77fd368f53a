// The honest protocol of `bench retrieval`, through the CLI as users run it: --cross finds every set
// in a folder and its subfolders and prints plain BM25 beside the engine (and MiniSearch when asked)
// with the differences; --report-baseline adds BM25 from the same run to a single-set run;
// --index-options switches one signal and rejects what is not a JSON object.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { discoverSets } from '../../src/search/cross.js';
import { fixtureTools } from './fixtures.js';

const run = promisify(execFile);
const CLI = path.resolve(import.meta.dirname, '../../bin/switchboard.js');

const SETS: Record<string, Array<[string, string]>> = {
  first: [
    ['create an issue in a repository', 'github/create_issue'],
    ['read a file from disk', 'filesystem/read_file'],
    ['run a sql query', 'postgres/query'],
  ],
  'first/second': [
    ['take a screenshot of the page', 'puppeteer/puppeteer_screenshot'],
    ['remember a fact about a person', 'memory/create_entities'],
  ],
};

let root: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'switchboard-cross-'));
  const tools = fixtureTools().map((t) => JSON.stringify({ server: t.server, name: t.name, description: t.description, inputSchema: t.inputSchema }));
  for (const [dir, queries] of Object.entries(SETS)) {
    const folder = path.join(root, dir);
    await mkdir(folder, { recursive: true });
    await writeFile(path.join(folder, 'tools.jsonl'), `${tools.join('\n')}\n`);
    const lines = queries.map(([query, tool], i) => {
      const [server, name] = tool.split('/');
      return JSON.stringify({ id: `${dir}-${i}`, query, groups: [[{ server, name }]] });
    });
    await writeFile(path.join(folder, 'queries.jsonl'), `${lines.join('\n')}\n`);
  }
});

describe('bench retrieval --cross and --report-baseline', () => {
  it('finds the sets of a folder and its subfolders', () => {
    expect(discoverSets([path.join(root, 'first')]).map((s) => s.name)).toEqual(['first', 'second']);
    expect(() => discoverSets([path.join(root, 'nowhere')])).toThrow(/not a folder/);
  });

  it('prints BM25, MiniSearch and the engine on every set with the differences to BM25', async () => {
    const { stdout } = await run(process.execPath, [CLI, 'bench', 'retrieval', '--cross', path.join(root, 'first'), '--engine', 'minisearch']);
    const rows = stdout.trim().split('\n').slice(2).map((l) => l.split(/\s+/));
    expect(rows.map((r) => `${r[0]} ${r[1]}`)).toEqual(['first bm25', 'first minisearch', 'first index', 'second bm25', 'second minisearch', 'second index']);
    for (const r of rows) expect(Number(r[2])).toBeGreaterThanOrEqual(0);
    const first = rows.filter((r) => r[0] === 'first');
    // The difference column is the engine's R@1 minus BM25's R@1 from the same run.
    expect(Number(first[2]![5])).toBeCloseTo(Number(first[2]![2]) - Number(first[0]![2]), 3);
    expect(stdout).toContain('first (3 queries), second (2 queries); zero-shot');
  });

  it('adds plain BM25 to a single-set run and rejects bad index options', async () => {
    const set = path.join(root, 'first');
    const { stdout } = await run(process.execPath, [CLI, 'bench', 'retrieval', '--tools', `${set}/tools.jsonl`, '--queries', `${set}/queries.jsonl`, '--report-baseline', '--index-options', '{"maxPerServer":2}']);
    expect(stdout).toMatch(/^engine index, lexical: \d+ tools, 3 queries/m);
    expect(stdout).toMatch(/^engine bm25, lexical: \d+ tools, 3 queries/m);
    expect(stdout).toMatch(/^vs bm25: R@1 [+-]\d\.\d{3} {2}R@5 [+-]\d\.\d{3} {2}MRR@10 [+-]\d\.\d{3}$/m);
    const bad = await run(process.execPath, [CLI, 'bench', 'retrieval', '--tools', `${set}/tools.jsonl`, '--queries', `${set}/queries.jsonl`, '--index-options', '[1]']).catch((e: { stderr: string; code: number }) => e);
    expect((bad as { code: number }).code).not.toBe(0);
    expect((bad as { stderr: string }).stderr).toContain('--index-options must be a JSON object');
  });
});
