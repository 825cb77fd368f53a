// The docs say what the code does (issue 19 items 7, 8, 10): each claim a new user found wrong is
// checked against the behaviour or the defaults it describes, so a later change to either side
// fails here instead of misleading the next user.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_SETTINGS } from '../../src/config/index.js';
import { RetrySchedule } from '../../src/servers/retry-schedule.js';
import { openDatabase, type ToolStats } from '../../src/store/index.js';
import { REPO, npmServer, tempDir, writeConfig } from '../helpers/gateway.js';
import { runCli, runCliJson } from '../cli/run-cli.js';

const doc = (file: string) => readFileSync(path.join(REPO, file), 'utf8').replace(/\s+/g, ' ');
const markdownIn = (folder: string) => readdirSync(path.join(REPO, folder)).filter((f) => f.endsWith('.md')).map((f) => `${folder}/${f}`);
const docs = () => ['README.md', ...markdownIn('docs'), ...markdownIn('docs/decisions')];

/**
 * The delays (s) before each automatic retry of a failed start with the default settings, taken from
 * the RetrySchedule a connection uses, driven as its supervisor (supervisor.ts) drives it (one more failed attempt,
 * then schedule) until it schedules no more. Jitter at its midpoint; Date faked so nothing is timed.
 */
function defaultRetryDelays(): number[] {
  vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'] });
  vi.spyOn(Math, 'random').mockReturnValue(0.5);
  const schedule = new RetrySchedule(DEFAULT_SETTINGS.resilience.retry);
  const delays: number[] = [];
  for (;;) {
    schedule.attempts++;
    if (!schedule.schedule(() => undefined)) break;
    delays.push((schedule.nextRetryAt!.getTime() - Date.now()) / 1000);
    schedule.cancel();
  }
  return delays;
}

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('docs match the code', () => {
  it('a port in use exits 1 (docs/http.md), as the CLI test of that case checks', () => {
    expect(doc('docs/http.md')).not.toMatch(/does not exit/);
    expect(doc('docs/http.md')).toMatch(/a port already in use with code 1/);
  });

  it('switchboard call is recorded, with session cli (docs/metrics.md)', async () => {
    expect(doc('docs/metrics.md')).not.toMatch(/made with `switchboard call`, which talks to the server directly/);
    expect(doc('docs/metrics.md')).toMatch(/Calls made with `switchboard call` are recorded like any other \(session `cli`\)/);
    const folder = await tempDir('switchboard-call-recorded-');
    const config = await writeConfig({ memory: npmServer('memory', [], { MEMORY_FILE_PATH: path.join(folder, 'm.jsonl') }) }, undefined, folder);
    const dataDir = path.join(folder, 'data');
    const called = await runCli(['call', 'memory_read_graph', '{}', '--config', config], dataDir);
    expect(called.code, called.stderr).toBe(0);
    const stats = await runCliJson<ToolStats[]>(['metrics', '--json', '--config', config], dataDir);
    expect(stats).toEqual([expect.objectContaining({ server: 'memory', tool: 'read_graph', calls: 1, successes: 1 })]);
    const store = openDatabase(dataDir);
    try {
      expect(store.metrics.recentCalls()).toEqual([expect.objectContaining({ server: 'memory', tool: 'read_graph', session: 'cli', outcome: 'ok' })]);
    } finally {
      store.close();
    }
  });

  it('serve has --mode besides --host and --port (docs/configuration.md)', async () => {
    const help = await runCli(['serve', '--help'], await tempDir());
    for (const flag of ['--host', '--port', '--mode']) expect(help.stdout).toContain(flag);
    expect(doc('docs/configuration.md')).not.toMatch(/Only `http.host` and `http.port` have command-line flags/);
    expect(doc('docs/configuration.md')).toMatch(/`--host` and `--port` \(`http.host`, `http.port`\), `--mode` \(`mode`\)/);
  });

  it('failed servers are retried on the schedule the docs state, and the shutdown wait is the configured 1 s (docs/stdio.md, docs/operations.md)', () => {
    const { shutdownGraceMs } = DEFAULT_SETTINGS.resilience;
    const delays = defaultRetryDelays();
    const stated = `${delays.slice(0, -1).join(', ')} and ${delays.at(-1)} s`; // "1, 2, 4 and 8 s"
    const attempts = `${delays.length + 1} attempts in all`;
    const stdio = doc('docs/stdio.md');
    const operations = doc('docs/operations.md');
    expect(stdio).not.toMatch(/not retried/);
    expect(stdio).toContain(`retried** after ${stated}, so ${attempts}`);
    expect(stdio).toContain(`retried with backoff (after ${stated})`);
    expect(operations).toContain(`retried after ${stated} (±20% jitter), so ${attempts}`);
    for (const text of [stdio, operations]) expect(text).not.toMatch(/\b8, 16 s|then 16 s|8 s, \.\.\./);
    expect(stdio).toContain(`waits up to ${shutdownGraceMs / 1000} s (\`resilience.shutdownGraceMs\`)`);
    expect(stdio).not.toMatch(/waits up to 2 s, sends SIGTERM/);
  });

  it('no doc (README, docs/, docs/decisions/) points at files outside the repository (../shared, /work/shared)', () => {
    expect(docs()).toContain('docs/decisions/0003-own-bm25f-index.md');
    for (const file of docs()) expect(doc(file), file).not.toMatch(/\.\.\/shared\/|\/work\/shared/);
  });

  it('every vendored listing has its licence text next to it, named in test/fixtures/README.md (item 7)', () => {
    const folder = path.join(REPO, 'test/fixtures/listings');
    const rows = readFileSync(path.join(REPO, 'test/fixtures/README.md'), 'utf8').split('\n').filter((line) => line.startsWith('| `'));
    for (const file of readdirSync(folder).filter((f) => f.endsWith('.tools.json'))) {
      const server = file.replace('.tools.json', '');
      const row = rows.find((line) => line.split('|')[1]!.includes(`\`${server}\``));
      expect(row, `${file} has no licence row`).toBeDefined();
      const texts = [...row!.matchAll(/\(listings\/(LICENSE[^)]+)\)/g)].map((m) => m[1]!);
      expect(texts.length, file).toBeGreaterThan(0);
      for (const text of texts) expect(readFileSync(path.join(folder, text), 'utf8'), text).toMatch(/MIT License|Apache License/);
    }
  });

  it('the README shows the Inspector stdio command with -- before Switchboard\u2019s own flags (item 8)', () => {
    const line = doc('README.md').match(/npx @modelcontextprotocol\/inspector --cli[^`]*/)?.[0];
    expect(line).toBeDefined();
    const [inspector, gateway] = line!.split(' -- ');
    expect(inspector).not.toContain('--config');
    expect(gateway).toMatch(/switchboard\.js serve --stdio --config /);
  });

  it('bench retrieval is the one command without --data-dir, and the README says so (item 10)', async () => {
    const dir = await tempDir();
    for (const command of [['serve'], ['servers'], ['tools'], ['call'], ['search'], ['metrics'], ['changes'], ['refresh'], ['toolset', 'list']]) {
      expect((await runCli([...command, '--help'], dir)).stdout, command.join(' ')).toContain('--data-dir');
    }
    expect((await runCli(['bench', 'retrieval', '--help'], dir)).stdout).not.toContain('--data-dir');
    expect(doc('README.md')).toMatch(/Every command except `bench retrieval` .* takes `--config <path>`/);
  });
});
