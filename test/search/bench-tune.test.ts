// The two-fold protocol of issue 20 (`bench retrieval --cross <folders> --tune-on <set>`) on small
// hand-made catalogs: the coordinate search must raise the name weight on a set whose right tools say
// the request in their names while decoys repeat it in their descriptions; it starts from plain BM25
// settings; knobs the set cannot measure stay there; the choice depends on the tuning set alone; the
// CLI prints the choice, every set beside plain BM25 (also stemmed) and a verdict per confirming set.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadBench, type BenchQuery } from '../../src/search/bench.js';
import { PlainBm25 } from '../../src/search/bm25.js';
import { GENERIC_KNOBS, startOptions } from '../../src/search/tune-knobs.js';
import { evaluate, sampleQueries, tune } from '../../src/search/tune.js';

const run = promisify(execFile);
const CLI = path.resolve(import.meta.dirname, '../../bin/switchboard.js');

type Tool = [server: string, name: string, description: string];
type Query = [query: string, tool: string];

// Each right tool says the request in its name; a decoy says its words more often in a long description.
const NAMES_TOOLS: Tool[] = [
  ['shop', 'create_invoice', 'Makes a billing record for a customer.'],
  ['shop', 'invoice_items', 'Lists the line items of an invoice. Can create filters for invoice items, create views of invoice lines and show what each invoice holds.'],
  ['shop', 'delete_customer', 'Removes an account and its billing history.'],
  ['shop', 'customer_notes', 'Shows notes about a customer. Notes on a customer that were marked delete are kept until a customer asks to delete them for good.'],
  ['shop', 'send_reminder', 'Emails someone about an unpaid bill.'],
  ['shop', 'reminder_log', 'The log of every reminder: when a reminder was sent, which reminder text was used and whether we send another reminder.'],
];
const NAMES_QUERIES: Query[] = [
  ['create invoice', 'shop/create_invoice'],
  ['delete customer', 'shop/delete_customer'],
  ['send reminder', 'shop/send_reminder'],
];

// A second catalog for confirming: plain descriptions, any sensible configuration finds them.
const OTHER_TOOLS: Tool[] = [
  ['weather', 'forecast', 'Weather forecast for a city for the next days.'],
  ['weather', 'alerts', 'Severe weather alerts for a region.'],
  ['files', 'read_file', 'Read a file from disk.'],
  ['files', 'list_directory', 'List the entries of a directory.'],
];
const OTHER_QUERIES: Query[] = [
  ['weather forecast for paris', 'weather/forecast'],
  ['read a file', 'files/read_file'],
  ['list a directory', 'files/list_directory'],
];

async function writeSet(folder: string, tools: Tool[], queries: Query[]): Promise<void> {
  await mkdir(folder, { recursive: true });
  await writeFile(path.join(folder, 'tools.jsonl'), `${tools.map(([server, name, description]) => JSON.stringify({ server, name, description, inputSchema: { type: 'object' } })).join('\n')}\n`);
  const lines = queries.map(([query, tool], i) => {
    const [server, name] = tool.split('/');
    return JSON.stringify({ id: `${path.basename(folder)}-${i}`, query, groups: [[{ server, name }]] });
  });
  await writeFile(path.join(folder, 'queries.jsonl'), `${lines.join('\n')}\n`);
}

let root: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'switchboard-tune-'));
  await writeSet(path.join(root, 'sets', 'names'), NAMES_TOOLS, NAMES_QUERIES);
  await writeSet(path.join(root, 'sets', 'other'), OTHER_TOOLS, OTHER_QUERIES);
  // The same tuning set next to a different confirming set.
  await writeSet(path.join(root, 'again', 'names'), NAMES_TOOLS, NAMES_QUERIES);
  await writeSet(path.join(root, 'again', 'elsewhere'), OTHER_TOOLS.slice(0, 2), OTHER_QUERIES.slice(0, 1));
});

const names = () => loadBench(path.join(root, 'sets', 'names', 'tools.jsonl'), path.join(root, 'sets', 'names', 'queries.jsonl'));
const knob = (name: string) => GENERIC_KNOBS.find((k) => k.name === name)!;

describe('tuning the engine on one set', () => {
  it('at plain BM25 settings the decoys win; the search raises the name weight until every right tool is first', () => {
    const input = names();
    const start = evaluate(input.tools, input.queries, startOptions('off'));
    expect(start.recall[1]).toBeLessThan(1);
    const tuned = tune(input, { knobs: [knob('k1'), knob('weights.name')], passes: 2 });
    expect(tuned.startScore).toEqual(start);
    expect(tuned.chosen.weights.name).toBeGreaterThan(1);
    expect(tuned.chosenScore.recall[1]).toBe(1);
    expect(tuned.steps.map((s) => s.knob)).toContain('weights.name');
    // Bounded: the start, then every other value of each knob, for at most two rounds.
    expect(tuned.evaluations).toBeLessThanOrEqual(1 + 2 * (4 + 5));
  });

  it('starts from plain BM25 settings, not the shipped defaults, and leaves knobs the set cannot measure there', () => {
    const start = startOptions('off');
    expect(start).toMatchObject({ k1: 0.9, nameCoverage: 0, serverBoost: 0, weights: { name: 1, description: 1, params: 1, server: 1, serverInfo: 0, enums: 0 } });
    expect(start.query).toMatchObject({ synonyms: false, fuzzy: false, prefix: false });
    expect(startOptions('on').query).toMatchObject({ synonyms: true, domainSynonyms: true });
    // No server descriptions and no parameters in this catalog: their weights cannot change anything.
    const tuned = tune(names(), { knobs: [knob('weights.serverInfo'), knob('weights.enums'), knob('weights.name')] });
    expect(tuned.chosen.weights.serverInfo).toBe(0);
    expect(tuned.chosen.weights.enums).toBe(0);
    expect(tuned.chosen.weights.name).toBeGreaterThan(1);
  });

  it('plain BM25 with the engine\'s stemmer (the bm25-stem row) matches inflected words that plain BM25 misses', () => {
    const plain = new PlainBm25();
    const stemmed = new PlainBm25(undefined, undefined, true);
    for (const tool of names().tools) {
      plain.add(tool);
      stemmed.add(tool);
    }
    expect(plain.search('emailing').map((h) => h.key)).toEqual([]);
    expect(stemmed.search('emailing').map((h) => h.key)).toEqual(['shop/send_reminder']);
  });

  it('samples large sets the same way for the same seed and differently for another', () => {
    const queries: BenchQuery[] = Array.from({ length: 50 }, (_, i) => ({ id: `q${i}`, query: `query ${i}`, groups: [] }));
    const ids = (seed: number) => sampleQueries(queries, 10, seed).map((q) => q.id);
    expect(ids(1)).toEqual(ids(1));
    expect(ids(1)).toHaveLength(10);
    expect(ids(2)).not.toEqual(ids(1));
    expect(sampleQueries(queries, 100, 1)).toHaveLength(50);
  });
});

describe('bench retrieval --tune-on', () => {
  const tuneLines = async (folder: string, extra: string[] = []) => {
    const { stdout } = await run(process.execPath, [CLI, 'bench', 'retrieval', '--cross', path.join(root, folder), '--tune-on', 'names', ...extra]);
    return stdout.trim().split('\n');
  };

  it('prints the choice, every set beside plain BM25 with start, shipped and tuned rows, and a verdict for the confirming set', async () => {
    const lines = await tuneLines('sets');
    expect(lines[0]).toMatch(/^tuned on names \(3 of 3 queries, seed 1\), word lists off, metric r1: \d+ configurations tried$/);
    expect(lines.find((l) => l.startsWith('chosen: '))).toMatch(/weights\.name 1 -> /);
    const optionsLine = lines.find((l) => l.startsWith('--index-options '))!;
    expect(JSON.parse(optionsLine.slice("--index-options '".length, -1)).weights.name).toBeGreaterThan(1);
    for (const engine of ['bm25', 'bm25-stem', 'start', 'shipped', 'tuned']) {
      expect(lines.some((l) => l.startsWith('names (tuned)') && l.includes(` ${engine} `))).toBe(true);
      expect(lines.some((l) => l.startsWith('other (confirm)') && l.includes(` ${engine} `))).toBe(true);
    }
    const tunedRow = lines.find((l) => l.startsWith('names (tuned)') && l.includes(' tuned '))!;
    expect(tunedRow.split(/\s+/)[3]).toBe('1.000'); // R@1 on the tuning set
    const verdicts = lines.filter((l) => l.startsWith('verdict '));
    expect(verdicts).toHaveLength(1);
    expect(verdicts[0]).toMatch(/^verdict other: tuned on names, R@1 [+-]\d\.\d{3} over plain BM25 here \(start point [+-]\d\.\d{3}, tuned knobs [+-]\d\.\d{3}; shipped [+-]\d\.\d{3}\): goal \(\+0\.05\) (MET|NOT met)$/);
  });

  it('chooses from the tuning set alone: another confirming set does not change the choice', async () => {
    const first = (await tuneLines('sets')).find((l) => l.startsWith('--index-options '));
    const second = (await tuneLines('again')).find((l) => l.startsWith('--index-options '));
    expect(second).toBe(first);
  });

  it('rejects flags that do not fit', async () => {
    const fails = (args: string[]) => run(process.execPath, [CLI, 'bench', 'retrieval', ...args]);
    await expect(fails(['--tune-on', 'names'])).rejects.toMatchObject({ stderr: expect.stringMatching(/--tune-on needs --cross/) });
    await expect(fails(['--cross', path.join(root, 'sets'), '--tune-on', 'nowhere'])).rejects.toMatchObject({ stderr: expect.stringMatching(/no such set; the --cross folders hold names, other/) });
    await expect(fails(['--cross', path.join(root, 'sets'), '--tune-on', 'names', '--lists', 'maybe'])).rejects.toMatchObject({ stderr: expect.stringMatching(/--lists must be one of off, on/) });
    await expect(fails(['--cross', path.join(root, 'sets'), '--tune-on', 'names', '--index-options', '{}'])).rejects.toMatchObject({ stderr: expect.stringMatching(/drop --train-split, --index-options/) });
    await expect(fails(['--cross', path.join(root, 'sets'), '--lists', 'on'])).rejects.toMatchObject({ stderr: expect.stringMatching(/belong to --tune-on/) });
  });
});
