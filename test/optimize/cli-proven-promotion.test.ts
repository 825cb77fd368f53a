// A promotion the rule really allows, end to end with no --force: `switchboard optimize --auto-promote` on a real
// npm server (server-everything) whose get-sum description lacks the words its golden prompts use. With the offline
// retrieval backend, and with the claude-code backend through the stand-in `claude` (both arms: tools loaded
// directly and deferred behind tool search). Then `optimize status` and `optimize report --out FILE` show it as
// proven (not forced), and a real client of a gateway started afterwards sees the promoted text.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { connectHttp, npmServer, REPO, startHttpGateway, writeConfig, type ConnectedClient, type RunningGateway } from '../helpers/gateway.js';
import { runCli } from '../cli/run-cli.js';
import { SUM_PROMPTS } from './sum-prompts.js';

const open: Array<ConnectedClient | RunningGateway> = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close().catch(() => undefined);
});

interface RunSummary {
  backend: string;
  tools: Array<{ tool: string; skipped?: string; promoted?: string; description?: string; passing?: string; decision: Array<{ candidate: string; promote: boolean; gain: number; failing?: string }> }>;
}

async function prepare(settings: Record<string, unknown> = {}) {
  const config = await writeConfig({ everything: npmServer('everything') }, { optimization: { enabled: true, ...settings } });
  const dir = path.dirname(config);
  const dataDir = path.join(dir, 'data');
  const cli = (...args: string[]) => runCli([...args, '--config', config], dataDir, 180_000);
  await writeFile(path.join(dir, 'prompts.json'), JSON.stringify(SUM_PROMPTS));
  const imported = await cli('optimize', 'prompts', '--server', 'everything', '--import', path.join(dir, 'prompts.json'));
  expect(imported.stdout).toContain(`saved ${SUM_PROMPTS.length} golden prompt(s)`);
  return { config, dir, dataDir, cli };
}

describe('a proven promotion (no --force)', () => {
  it('retrieval backend: --auto-promote passes the rule, status and report --out show it unforced, a real client sees it', async () => {
    const { config, dir, cli } = await prepare();
    const run = await cli('optimize', 'everything', '--tools', 'get-sum,get-env', '--candidates', '2', '--auto-promote', '--json');
    expect(run.code, run.stderr).toBe(0);
    // get-env has no golden prompts: skipped with the command that adds some.
    expect(run.stderr).toContain('everything.get-env: no golden prompts; add some with "switchboard optimize prompts --server everything --import <file>" (skipped)');
    for (const phase of ['generating', 'evaluating', 'deciding']) expect(run.stderr).toMatch(new RegExp(`^${phase} get-sum: (\\d+)/\\1 \\(100%\\) ETA 0s$`, 'm'));
    const summary = JSON.parse(run.stdout) as RunSummary;
    const sum = summary.tools.find((t) => t.tool === 'get-sum')!;
    expect(summary.tools.find((t) => t.tool === 'get-env')?.skipped).toBe('no golden prompts');
    expect(sum.promoted).toBeDefined();
    expect(sum.promoted).toBe(sum.passing);
    const verdict = sum.decision.find((d) => d.candidate === sum.promoted)!;
    expect(verdict.promote).toBe(true);
    expect(verdict.gain).toBeGreaterThanOrEqual(0.1);
    expect(sum.description).toMatch(/^Returns the sum of two numbers\.? Use for: .*total/);

    const status = JSON.parse((await cli('optimize', 'status', '--server', 'everything', '--json')).stdout) as Array<{ tool: string; promotion?: { candidateId: string; forced: boolean; stale: boolean; evaluation?: unknown } }>;
    const promotion = status.find((s) => s.tool === 'get-sum')!.promotion!;
    expect(promotion).toMatchObject({ candidateId: sum.promoted, forced: false, stale: false });
    expect(promotion.evaluation).toBeDefined();

    const md = path.join(dir, 'report.md');
    const report = await cli('optimize', 'report', '--server', 'everything', '--out', md);
    expect(report.code, report.stderr).toBe(0);
    expect(report.stdout).toBe(''); // written to the file, not printed
    const text = await readFile(md, 'utf8');
    const section = text.slice(text.indexOf('## everything.get-sum'));
    expect(section).toContain(`Promoted: ${sum.description}`);
    expect(section).not.toContain('FORCED');
    const json = path.join(dir, 'report.json');
    expect((await cli('optimize', 'report', '--server', 'everything', '--format', 'json', '--out', json)).code).toBe(0);
    const reports = JSON.parse(await readFile(json, 'utf8')) as Array<{ tool: string; promotion?: { description: string; forced: boolean } }>;
    expect(reports.find((r) => r.tool === 'get-sum')!.promotion).toMatchObject({ description: sum.description, forced: false });

    const gw = await startHttpGateway(config);
    open.push(gw);
    const client = await connectHttp(gw.url);
    open.push(client);
    const listed = (await client.client.listTools()).tools;
    expect(listed.find((t) => t.name === 'everything_get-sum')?.description).toBe(sum.description);
    expect(listed.find((t) => t.name === 'everything_echo')?.description).toBe('Echoes back the input string');
  }, 300_000);

  it('claude-code backend (stand-in claude): both arms evaluated, the candidate passes in each and is promoted', async () => {
    const standIn = path.join(REPO, 'test/fixtures/claude-standin.mjs');
    const { dataDir, cli } = await prepare({ backends: [{ name: 'cc', type: 'claude-code', command: standIn, timeoutMs: 30_000 }] });
    const run = await cli('optimize', 'everything', '--tools', 'get-sum', '--backend', 'cc', '--candidates', '1', '--repeats', '1', '--auto-promote', '--json');
    expect(run.code, run.stderr).toBe(0);
    const summary = JSON.parse(run.stdout) as RunSummary;
    expect(summary.backend).toBe('cc');
    const sum = summary.tools[0];
    expect(sum.decision).toHaveLength(1);
    expect(sum.decision[0].promote, sum.decision[0].failing).toBe(true);
    expect(sum.promoted).toBe(sum.decision[0].candidate);
    // Every prompt (get-sum's and its nearest siblings') ran in both arms for canonical, the control, the candidate
    // and its paraphrase.
    const db = new Database(path.join(dataDir, 'switchboard.db'), { readonly: true });
    try {
      const arms = db.prepare('SELECT arm, count(*) AS n FROM optimize_eval_runs GROUP BY arm ORDER BY arm').all() as Array<{ arm: string; n: number }>;
      expect(arms.map((a) => a.arm)).toEqual(['deferred', 'direct']);
      expect(arms[0].n).toBe(arms[1].n);
      expect(arms[0].n % 4).toBe(0);
      expect(arms[0].n).toBeGreaterThanOrEqual(4 * SUM_PROMPTS.filter((p) => p.tool === 'get-sum').length);
    } finally {
      db.close();
    }
  }, 300_000);
});
