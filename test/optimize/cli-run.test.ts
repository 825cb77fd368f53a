// `switchboard optimize` end to end with the offline retrieval backend against a real npm server: golden prompts
// imported, candidates generated and linted, canonical / paraphrase control / candidates evaluated, the decision
// stored and reported, a refused promotion naming its condition, and the --enable-optimization gate.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { npmServer, writeConfig } from '../helpers/gateway.js';
import { runCli } from '../cli/run-cli.js';
import { startModelStandIn } from '../fixtures/model-standin.js';

const prompts = [
  { tool: 'get-sum', category: 'direct', prompt: 'get the sum of 3 and 4' },
  { tool: 'get-sum', category: 'direct', prompt: 'sum these two numbers for me: 10 and 32' },
  { tool: 'get-sum', category: 'direct', prompt: 'what is the sum of 7 plus 8' },
  { tool: 'get-sum', category: 'indirect', prompt: 'I bought 3 apples and 5 pears, how many fruits in total' },
  { tool: 'get-sum', category: 'indirect', prompt: 'add up my expenses of 12 and 30 dollars, total please' },
  { tool: 'get-sum', category: 'indirect', prompt: 'combine totals: 4 cats plus 6 dogs' },
  { tool: 'get-sum', category: 'negative', prompt: 'echo back the words hello world' },
  { tool: 'get-sum', category: 'negative', prompt: 'print the environment variables of the server' },
  { tool: 'get-sum', category: 'negative', prompt: 'show me a tiny test image please' },
  { tool: 'echo', category: 'direct', prompt: 'echo this message back to me' },
  { tool: 'echo', category: 'direct', prompt: 'repeat back: testing one two' },
];

describe('switchboard optimize (retrieval backend, real server-everything)', () => {
  it('imports prompts, evaluates, stores and reports the decision; refuses an unproven promotion by name', async () => {
    const config = await writeConfig({ everything: npmServer('everything') });
    const dataDir = path.join(path.dirname(config), 'data');
    const cli = (...args: string[]) => runCli([...args, '--config', config], dataDir, 120_000);

    const gated = await cli('optimize', 'everything', '--tools', 'get-sum');
    expect(gated.code).toBe(2);
    expect(gated.stderr).toContain('description optimization is off: pass --enable-optimization');

    const file = path.join(path.dirname(config), 'prompts.json');
    await writeFile(file, JSON.stringify(prompts));
    const imported = await cli('optimize', 'prompts', '--server', 'everything', '--import', file, '--enable-optimization');
    expect(imported.stdout).toContain('saved 11 golden prompt(s)');
    const bad = path.join(path.dirname(config), 'bad.json');
    await writeFile(bad, JSON.stringify([{ tool: 'x', category: 'sideways', prompt: 'long enough prompt' }]));
    const rejected = await cli('optimize', 'prompts', '--server', 'everything', '--import', bad, '--enable-optimization');
    expect(rejected.code).toBe(2);
    expect(rejected.stderr).toContain('entry 0, field category');

    const run = await cli('optimize', 'everything', '--tools', 'get-sum', '--backend', 'retrieval', '--candidates', '2', '--json', '--enable-optimization');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/evaluating get-sum: \d+\/\d+ \(100%\) ETA 0s/);
    const result = JSON.parse(run.stdout) as { backend: string; tools: Array<{ tool: string; candidates: number; decision: Array<{ candidate: string; promote: boolean; gain: number; p: number; failing?: string }> }> };
    expect(result.backend).toBe('retrieval');
    const tool = result.tools[0];
    expect(tool.tool).toBe('get-sum');
    expect(tool.candidates).toBeGreaterThan(0);
    expect(tool.decision.length).toBeGreaterThan(0);
    // Six positive prompts cannot reach p < 0.05 after the gain they could show: the gate refuses, naming why.
    const first = tool.decision[0];
    expect(first.promote).toBe(false);
    expect(first.failing).toMatch(/^(gain|significance|holdout-\w+|paraphrase-robust|beats-control|category-floor|negatives|no-stealing): /);

    const report = await cli('optimize', 'report', '--server', 'everything', '--format', 'json');
    const reports = JSON.parse(report.stdout) as Array<{ tool: string; decision?: { candidates: unknown[] }; prompts: Array<{ canonical: string }> }>;
    const sum = reports.find((r) => r.tool === 'get-sum')!;
    expect(sum.decision!.candidates.length).toBe(tool.decision.length);
    expect(sum.prompts.every((p) => /^\d\/\d$/.test(p.canonical))).toBe(true);
    const md = await cli('optimize', 'report', '--server', 'everything');
    expect(md.stdout).toContain('## everything.get-sum');
    expect(md.stdout).toMatch(/Wilson 95%/);

    const promote = await cli('optimize', 'promote', 'everything', 'get-sum', '--candidate', first.candidate, '--enable-optimization');
    expect(promote.code).toBe(1);
    expect(promote.stderr).toContain(`promotion of everything.get-sum refused: ${first.failing!.split(':')[0]}`);
  }, 240_000);

  it('a model backend writes the candidates it then evaluates (an OpenAI-compatible stand-in on 127.0.0.1)', async () => {
    const standIn = await startModelStandIn();
    try {
      const config = await writeConfig({ everything: npmServer('everything') }, { optimization: { backends: [{ name: 'local', type: 'openai', baseUrl: `${standIn.url}/v1`, model: 'stand-in-1' }] } });
      const dataDir = path.join(path.dirname(config), 'data');
      const cli = (...args: string[]) => runCli([...args, '--config', config, '--enable-optimization'], dataDir, 120_000);
      const file = path.join(path.dirname(config), 'prompts.json');
      await writeFile(file, JSON.stringify(prompts));
      expect((await cli('optimize', 'prompts', '--server', 'everything', '--import', file)).code).toBe(0);
      const run = await cli('optimize', 'everything', '--tools', 'get-sum', '--backend', 'local', '--candidates', '2', '--repeats', '1', '--json');
      expect(run.code, run.stderr).toBe(0);
      expect((JSON.parse(run.stdout) as { tools: Array<{ candidates: number }> }).tools[0].candidates).toBe(2);
      // One generation request (no tools, shown the tool and its siblings), then selections with the written texts swapped in.
      const generation = standIn.requests.filter((r) => !r.body.tools);
      expect(generation).toHaveLength(1);
      expect(JSON.stringify(generation[0].body)).toContain('get-sum');
      const shown = standIn.requests.filter((r) => r.body.tools).map((r) => (r.body.tools as Array<{ function: { name: string; description: string } }>).find((t) => t.function.name === 'get-sum')?.function.description);
      expect(shown).toContain('Adds two numbers and returns the total, for sums of expenses or counts.');
    } finally {
      await standIn.close();
    }
  }, 240_000);
});
