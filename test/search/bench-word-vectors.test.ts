// `bench retrieval --word-vectors` through the CLI as the experiment of issue 20 runs it: --cross adds
// the vectors alone and fused with BM25 and with the engine beside the usual rows (differences to
// BM25 of the same run), reports the table's load cost on stderr, and rejects bad --vector-options.
import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { encodeCompact } from '../../src/search/word-vectors/compact.js';
import { MapWordVectorTable } from '../../src/search/word-vectors/table.js';

const run = promisify(execFile);
const CLI = path.resolve(import.meta.dirname, '../../bin/switchboard.js');

const TOOLS = [
  { server: 'places', name: 'search_nearby', description: 'Find places near a location.' },
  { server: 'clinics', name: 'search_doctors', description: 'Look up doctors by specialty.' },
  { server: 'travel', name: 'book_car', description: 'Book a rental car.' },
];
const QUERIES: Array<[string, string]> = [
  ['physician', 'clinics/search_doctors'],
  ['book an automobile', 'travel/book_car'],
  ['places near the station', 'places/search_nearby'],
];

let set: string;
let vectors: string;
beforeAll(async () => {
  set = await mkdtemp(path.join(os.tmpdir(), 'switchboard-bench-vectors-'));
  await writeFile(path.join(set, 'tools.jsonl'), `${TOOLS.map((t) => JSON.stringify({ ...t, inputSchema: { type: 'object', properties: {} } })).join('\n')}\n`);
  const lines = QUERIES.map(([query, id], i) => {
    const [server, name] = id.split('/');
    return JSON.stringify({ id: `q${i}`, query, groups: [[{ server, name }]] });
  });
  await writeFile(path.join(set, 'queries.jsonl'), `${lines.join('\n')}\n`);
  const table = new MapWordVectorTable(3);
  const words: Array<[string, number[]]> = [
    ['find', [0.3, 0.3, 0.9]],
    ['near', [0, 1, 0]],
    ['places', [0.1, 1, 0.1]],
    ['car', [0, 0, 1]],
    ['doctors', [1, 0, 0]],
    ['physician', [0.95, 0.1, 0]],
    ['automobile', [0.05, 0, 1]],
  ];
  for (const [word, v] of words) table.add(word, Float32Array.from(v));
  vectors = path.join(set, 'hand.sbwv');
  await writeFile(vectors, encodeCompact(table.words(), table, 100));
});

describe('bench retrieval --word-vectors', () => {
  it('adds the vectors, bm25+vectors and index+vectors rows to a cross run and reports the load cost', async () => {
    const { stdout, stderr } = await run(process.execPath, [CLI, 'bench', 'retrieval', '--cross', set, '--word-vectors', vectors, '--vector-options', '{"nameWeight":1,"fusion":{"method":"linear","vectorWeight":0.5}}']);
    const rows = stdout.trim().split('\n').slice(2).map((l) => l.split(/\s+/));
    const name = path.basename(set);
    expect(rows.map((r) => `${r[0]} ${r[1]}`)).toEqual([`${name} bm25`, `${name} index`, `${name} vectors`, `${name} bm25+vectors`, `${name} index+vectors`]);
    // The physician request shares no word with any tool: only rows with vectors can get it right.
    const recallAt1 = Object.fromEntries(rows.map((r) => [r[1], Number(r[2])]));
    expect(recallAt1.vectors).toBe(1);
    expect(recallAt1['bm25+vectors']).toBeGreaterThan(recallAt1.bm25!);
    expect(stderr).toMatch(/word vectors: 7 words of 3 dimensions from .*hand\.sbwv in \d+ ms/);
  });

  it('rejects options it does not know and options without a vectors file', async () => {
    const bad = await run(process.execPath, [CLI, 'bench', 'retrieval', '--cross', set, '--word-vectors', vectors, '--vector-options', '{"weighting":"tfidf"}']).catch((e: { stderr: string; code: number }) => e);
    expect((bad as { code: number }).code).not.toBe(0);
    expect((bad as { stderr: string }).stderr).toContain('--vector-options must be a JSON object');
    const lonely = await run(process.execPath, [CLI, 'bench', 'retrieval', '--cross', set, '--vector-options', '{}'], { env: { ...process.env, SWITCHBOARD_WORD_VECTORS: '' } }).catch((e: { stderr: string; code: number }) => e);
    expect((lonely as { stderr: string }).stderr).toContain('--vector-options needs --word-vectors');
  });
});
