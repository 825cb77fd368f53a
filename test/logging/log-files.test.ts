// Per-run log files through the real gateway (stdio face, server-everything): the file a run
// writes in <data dir>/logs, retention of older runs' files, the stderr fallback with a warning when
// the file cannot be created, --log-file and --no-log-file, and `switchboard logs` on the newest file.
import { spawn } from 'node:child_process';
import { appendFile, mkdir, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI, REPO, connectStdio, isAlive, newClient, npmServer, stopChild, tempDir, waitFor, writeConfig, type ConnectedClient } from '../helpers/gateway.js';
import { runCli } from '../cli/run-cli.js';

const NAME = /^switchboard_\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d(_\d+)?\.log$/;
const open: ConnectedClient[] = [];

afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
});

async function start(config: string, extraArgs: string[] = []): Promise<ConnectedClient> {
  const connected = await connectStdio(config, newClient(), extraArgs);
  open.push(connected);
  return connected;
}

const lines = (text: string) => text.split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);

/** A line in an old run's format, `days` days old. */
const oldLine = (msg: string, extra: Record<string, unknown> = {}) => `${JSON.stringify({ level: 30, time: Date.now() - 86_400_000, msg, ...extra })}\n`;

describe('per-run log files', () => {
  it('a run writes JSON lines to its own file in <data dir>/logs, and to stderr', async () => {
    const config = await writeConfig({ everything: npmServer('everything') });
    const dataDir = path.join(path.dirname(config), 'data');
    const gateway = await start(config);
    const { tools } = await gateway.client.listTools();
    expect(tools.length).toBeGreaterThan(0);
    const dir = path.join(dataDir, 'logs');
    const [name, ...others] = await readdir(dir);
    expect(others).toEqual([]);
    expect(name).toMatch(NAME);
    // Written asynchronously: wait for the line rather than assume it is there.
    const records = await waitFor(async () => {
      const found = lines(await readFile(path.join(dir, name!), 'utf8'));
      return found.some((r) => r.msg === 'configuration loaded') && found;
    }, 'the log file to get its first lines');
    const loaded = records.find((r) => r.msg === 'configuration loaded')!;
    expect(loaded.logFile).toBe(path.join(dir, name!));
    expect(loaded.dataDir).toBe(dataDir);
    expect(gateway.log!.records().some((r) => r.msg === 'configuration loaded')).toBe(true);
  });

  it('retention keeps the newest files and none older than the days set', async () => {
    const config = await writeConfig({ everything: npmServer('everything') }, { logRetention: { files: 3, days: 2 } });
    const dir = path.join(path.dirname(config), 'data', 'logs');
    await mkdir(dir, { recursive: true });
    const old = ['2020-01-01T00-00-00', '2020-01-02T00-00-00', '2020-01-03T00-00-00', '2020-01-04T00-00-00'].map((s) => `switchboard_${s}.log`);
    for (const name of old) await writeFile(path.join(dir, name), oldLine(name));
    // The newest old file was last written 10 days ago: over the 2-day limit even though it is among the newest 3.
    const tenDaysAgo = new Date(Date.now() - 10 * 86_400_000);
    await utimes(path.join(dir, old[3]!), tenDaysAgo, tenDaysAgo);
    await writeFile(path.join(dir, 'notes.txt'), 'not a log file\n');
    await start(config);
    const left = (await readdir(dir)).sort();
    // Kept: old[2] (among the newest 3 and written just now by this test), this run's file, and the unrelated file.
    expect(left).toContain('notes.txt');
    expect(left).toContain(old[2]);
    expect(left).not.toContain(old[0]);
    expect(left).not.toContain(old[1]);
    expect(left).not.toContain(old[3]);
    expect(left.filter((n) => NAME.test(n))).toHaveLength(2);
  });

  it('when the file cannot be created, a warning goes to stderr and logging goes on there', async () => {
    const config = await writeConfig({ everything: npmServer('everything') });
    const dataDir = path.join(path.dirname(config), 'data');
    await mkdir(dataDir, { recursive: true });
    await writeFile(path.join(dataDir, 'logs'), 'a file where the logs folder should be\n');
    const gateway = await start(config);
    await gateway.client.listTools();
    const warning = gateway.log!.records().find((r) => r.msg?.toString().startsWith('cannot create the log file'));
    expect(warning).toMatchObject({ level: 40, file: path.join(dataDir, 'logs') });
    expect(String(warning!.err)).toMatch(/EEXIST|ENOTDIR/);
    // Still logging on stderr after the warning.
    expect(gateway.log!.records().some((r) => r.msg === 'configuration loaded')).toBe(true);
  });

  it('a file that fails mid-run (disk full) is dropped with one warning; logging goes on to stderr and the gateway still exits', async () => {
    const config = await writeConfig({ everything: npmServer('everything') });
    const gateway = await start(config, ['--log-file', '/dev/full']); // every write fails with ENOSPC
    await gateway.client.listTools();
    await gateway.client.callTool({ name: 'everything_echo', arguments: { message: 'hi' } });
    const warnings = await waitFor(() => {
      const found = gateway.log!.records().filter((r) => r.msg === 'writing the log file failed; logging goes on to stderr only');
      return found.length > 0 && found;
    }, 'the write-failure warning');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ level: 40, file: '/dev/full', err: expect.stringMatching(/ENOSPC/) });
    expect(gateway.log!.records().some((r) => r.msg === 'configuration loaded')).toBe(true);
    // It used to hang at exit for good: the exit-time flush retried the failing write forever.
    await gateway.close();
    open.splice(0);
    await waitFor(() => !isAlive(gateway.pid!), 'the gateway to exit after its client closed', 15_000);
  });

  it('--log-file writes where it is told; --no-log-file writes no file', async () => {
    const config = await writeConfig({ everything: npmServer('everything') });
    const dataDir = path.join(path.dirname(config), 'data');
    const target = path.join(await tempDir(), 'nested', 'gateway.log');
    const named = await start(config, ['--log-file', target]);
    await named.client.listTools();
    await waitFor(async () => (await readFile(target, 'utf8').catch(() => '')).includes('"configuration loaded"'), 'the named log file');
    await named.close();
    open.splice(0);
    const none = await start(config, ['--no-log-file']);
    await none.client.listTools();
    expect(await readdir(path.join(dataDir, 'logs')).catch(() => [])).toEqual([]);
  });
});

describe('switchboard logs', () => {
  it('prints the newest run file pretty, filtered by level and server', async () => {
    const config = await writeConfig({ everything: npmServer('everything') });
    const dataDir = path.join(path.dirname(config), 'data');
    const dir = path.join(dataDir, 'logs');
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, 'switchboard_2020-01-01T00-00-00.log'), oldLine('from an older run'));
    const gateway = await start(config);
    await gateway.client.callTool({ name: 'everything_echo', arguments: { message: 'hi' } });
    await gateway.close();
    open.splice(0);
    const newest = (await readdir(dir)).sort().at(-1)!;
    const records = lines(await readFile(path.join(dir, newest), 'utf8'));
    expect(records.some((r) => r.msg === 'configuration loaded')).toBe(true);

    const all = await runCli(['logs'], dataDir);
    expect(all.code).toBe(0);
    expect(all.stderr).toContain(newest);
    expect(all.stdout).toContain('configuration loaded');
    expect(all.stdout).not.toContain('from an older run');
    expect(all.stdout).not.toMatch(/^\{/m); // pretty, not JSON
    expect(all.stdout).toMatch(/INFO/);

    const warnings = await runCli(['logs', '--level', 'warn'], dataDir);
    expect(warnings.code).toBe(0);
    expect(warnings.stdout).not.toContain('configuration loaded');
    expect(warnings.stdout).not.toMatch(/INFO|DEBUG/);

    const server = await runCli(['logs', '--server', 'everything', '--json'], dataDir);
    const serverLines = lines(server.stdout);
    expect(serverLines.length).toBeGreaterThan(0);
    expect(serverLines.every((r) => r.server === 'everything')).toBe(true);
    expect(serverLines.length).toBeLessThan(records.length);
  });

  it('says where it looked when there is no log file yet', async () => {
    const dataDir = await tempDir();
    const result = await runCli(['logs'], dataDir);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(path.join(dataDir, 'logs'));
  });

  it('--follow prints what is appended (a line only once complete), moves on to a newer run\'s file, and survives its old file removed', async () => {
    const dataDir = await tempDir();
    const dir = path.join(dataDir, 'logs');
    await mkdir(dir, { recursive: true });
    const first = path.join(dir, 'switchboard_2026-01-01T00-00-00.log');
    await writeFile(first, oldLine('first line'));
    const child = spawn(process.execPath, [CLI, 'logs', '--follow', '--data-dir', dataDir], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    try {
      await waitFor(() => stdout.includes('first line'), 'the existing line');
      expect(stderr).toContain(first);
      // Half a line is held back until its newline arrives.
      const half = oldLine('appended later');
      await appendFile(first, half.slice(0, 20));
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect(stdout).not.toContain('appended later');
      await appendFile(first, half.slice(20));
      await waitFor(() => stdout.includes('appended later'), 'the appended line');
      // A newer run starts: follow moves on to its file, and the old one may vanish (retention).
      const second = path.join(dir, 'switchboard_2026-01-02T00-00-00.log');
      await writeFile(second, oldLine('from the next run'));
      await waitFor(() => stdout.includes('from the next run'), 'the newer file');
      expect(stderr).toContain(second);
      await rm(first);
      await appendFile(second, oldLine('still following'));
      await waitFor(() => stdout.includes('still following'), 'lines after the old file was removed');
      expect(child.exitCode).toBeNull();
      expect(stdout.match(/first line/g)).toHaveLength(1);
    } finally {
      await stopChild(child);
    }
  });
});
