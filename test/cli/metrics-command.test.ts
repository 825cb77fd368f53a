// `switchboard metrics` and `switchboard changes` against a store written directly (no gateway, no
// servers): --since parsing, filters, the table and JSON shapes, and that reading never creates a store.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseSince } from '../../src/cli/metrics.js';
import { openDatabase, type ToolStats, type CatalogChange } from '../../src/store/index.js';
import { tempDir } from '../helpers/gateway.js';
import { runCli, runCliJson } from './run-cli.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('parseSince', () => {
  const now = Date.parse('2025-06-10T12:00:00Z');

  it('takes durations back from now', () => {
    expect(parseSince('90s', '--since', now)).toBe(now - 90_000);
    expect(parseSince('30m', '--since', now)).toBe(now - 30 * 60_000);
    expect(parseSince('24h', '--since', now)).toBe(now - DAY);
    expect(parseSince('7d', '--since', now)).toBe(now - 7 * DAY);
    expect(parseSince('2w', '--since', now)).toBe(now - 14 * DAY);
    expect(parseSince('1.5h', '--since', now)).toBe(now - 1.5 * HOUR);
    expect(parseSince('250ms', '--since', now)).toBe(now - 250);
  });

  it('takes ISO dates (midnight UTC) and date-times', () => {
    expect(parseSince('2025-06-01', '--since', now)).toBe(Date.parse('2025-06-01T00:00:00Z'));
    expect(parseSince('2025-06-01T08:30:00Z', '--since', now)).toBe(Date.parse('2025-06-01T08:30:00Z'));
    expect(parseSince('2025-06-01T08:30:00+02:00', '--since', now)).toBe(Date.parse('2025-06-01T06:30:00Z'));
  });

  it('refuses anything else, naming the option', () => {
    for (const bad of ['', '24', 'yesterday', '7 days', '-1d', '2025-13-45', '1y']) {
      expect(() => parseSince(bad, '--since', now)).toThrow(/--since must be a duration like 30m, 24h or 7d/);
    }
    expect(() => parseSince('soon', 'since', now)).toThrow(/^since must be/);
  });
});

describe('switchboard metrics and changes read the store', () => {
  const dirs: string[] = [];
  afterEach(() => void dirs.splice(0));

  async function dataDir(): Promise<string> {
    const dir = path.join(await tempDir('switchboard-metrics-cli-'), 'data');
    dirs.push(dir);
    return dir;
  }

  it('report "no store" without creating one, and refuse a bad --since with exit code 2', async () => {
    const dir = await dataDir();
    const metrics = await runCli(['metrics'], dir);
    expect(metrics.code).toBe(0);
    expect(metrics.stdout).toContain('No calls recorded (no store yet at');
    expect(await runCliJson<unknown[]>(['metrics', '--json'], dir)).toEqual([]);
    const changes = await runCli(['changes'], dir);
    expect(changes.code).toBe(0);
    expect(changes.stdout).toContain('No catalog changes recorded (no store yet at');
    expect(await runCliJson<unknown[]>(['changes', '--json'], dir)).toEqual([]);
    expect(existsSync(dir)).toBe(false);

    const bad = await runCli(['metrics', '--since', 'yesterday'], dir);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--since must be a duration like 30m, 24h or 7d');
    expect((await runCli(['changes', '--limit', '0'], dir)).code).toBe(2);
  });

  it('shows per-tool statistics as a table and as JSON, filtered by server, tool and --since', async () => {
    const dir = await dataDir();
    const now = Date.now();
    const store = openDatabase(dir);
    try {
      const call = (tool: string, outcome: 'ok' | 'tool_error' | 'timeout', durationMs: number, startedAt: number, errorMessage?: string) =>
        store.metrics.recordCall({ server: 'fs', tool, startedAt, durationMs, outcome, ...(errorMessage && { errorMessage, errorClass: 'isError' }) });
      for (let i = 1; i <= 8; i++) call('read', 'ok', i * 10, now - 60_000);
      call('read', 'tool_error', 5, now - 30_000, 'no such file: /x');
      call('read', 'timeout', 500, now - 2 * HOUR, 'timed out after 500 ms');
      call('write', 'ok', 3, now - 3 * HOUR);
      store.metrics.recordCall({ server: 'mem', tool: 'get', startedAt: now - 1000, durationMs: 1, outcome: 'ok' });
    } finally {
      store.close();
    }

    const all = await runCliJson<ToolStats[]>(['metrics', '--json'], dir);
    expect(all.map((s) => `${s.server}/${s.tool}`)).toEqual(['fs/read', 'fs/write', 'mem/get']);
    const read = all[0]!;
    expect(read).toMatchObject({ calls: 10, successes: 8, failures: 2, cancelled: 0, successRate: 0.8 });
    expect(read.p50Ms).toBe(40); // nearest rank over 5, 10..80, 500: the 5th of 10
    expect(read.p99Ms).toBe(500);
    expect(read.lastError).toEqual({ message: 'no such file: /x', at: now - 30_000 });
    expect(read.lastCalledAt).toBe(now - 30_000);

    const fsOnly = await runCliJson<ToolStats[]>(['metrics', '--json', '--server', 'fs', '--tool', 'write'], dir);
    expect(fsOnly).toEqual([expect.objectContaining({ server: 'fs', tool: 'write', calls: 1, successRate: 1 })]);

    const recent = await runCliJson<ToolStats[]>(['metrics', '--json', '--since', '1h'], dir);
    expect(recent.map((s) => `${s.server}/${s.tool}`)).toEqual(['fs/read', 'mem/get']);
    expect(recent[0]).toMatchObject({ calls: 9, failures: 1 });

    const text = await runCli(['metrics', '--server', 'fs'], dir);
    expect(text.code).toBe(0);
    const lines = text.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^SERVER\s+TOOL\s+CALLS\s+OK\s+FAILED\s+CANCELLED\s+SUCCESS\s+P50 MS\s+P95 MS\s+P99 MS\s+LAST CALLED\s+LAST ERROR$/);
    expect(lines[1]).toMatch(/^fs\s+read\s+10\s+8\s+2\s+0\s+80%\s+40\.0\s+500\s+500\s+\d+s ago\s+\d+s ago: no such file: \/x$/);
    expect(lines[2]).toMatch(/^fs\s+write\s+1\s+1\s+0\s+0\s+100%\s+3\.00\s+3\.00\s+3\.00\s+3h ago\s*$/);
    expect(lines.at(-1)).toBe('2 tool(s), 11 call(s)');

    const none = await runCli(['metrics', '--tool', 'fs_read'], dir);
    expect(none.stdout).toContain('No calls recorded for tool "fs_read" in');
    expect(none.stdout).toContain('Tool names are the server\u2019s own names');
  });

  it('lists catalog changes newest first, by server (including per-profile listings) and --since', async () => {
    const dir = await dataDir();
    const store = openDatabase(dir);
    try {
      const tool = (name: string, description = `${name} tool`) => ({ name, description, inputSchema: { type: 'object' } });
      store.catalog.saveListing('fs', 'tools', [tool('read'), tool('write')]);
      store.catalog.saveListing('fs [sampling]', 'tools', [tool('read')]);
      store.catalog.saveListing('mem', 'prompts', [{ name: 'greet' }]);
      store.catalog.saveListing('fs', 'tools', [tool('read', 'reads a file'), tool('list')]);
    } finally {
      store.close();
    }
    const rows = await runCliJson<CatalogChange[]>(['changes', '--json'], dir);
    expect(rows.map((r) => `${r.server} ${r.change} ${r.name}`)).toEqual([
      'fs removed write',
      'fs added list',
      'fs updated read',
      'mem added greet',
      'fs [sampling] added read',
      'fs added write',
      'fs added read',
    ]);
    expect(rows[2]).toMatchObject({ kind: 'tools', diffSummary: ['description'] });
    expect(rows[2]!.oldHash).toMatch(/^[0-9a-f]{64}$/);

    const fs = await runCliJson<CatalogChange[]>(['changes', '--json', '--server', 'fs'], dir);
    expect(fs.map((r) => r.server)).toEqual(['fs', 'fs', 'fs', 'fs [sampling]', 'fs', 'fs']);
    expect(await runCliJson<CatalogChange[]>(['changes', '--json', '--since', '2999-01-01'], dir)).toEqual([]);
    expect(await runCliJson<CatalogChange[]>(['changes', '--json', '--limit', '2'], dir)).toHaveLength(2);

    const text = await runCli(['changes', '--server', 'mem'], dir);
    expect(text.stdout).toMatch(/^TIME\s+SERVER\s+KIND\s+NAME\s+CHANGE\s+FIELDS\n\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ\s+mem\s+prompt\s+greet\s+added\s*\n1 change\(s\)\n$/);
  });
});
