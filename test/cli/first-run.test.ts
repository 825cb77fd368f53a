// A first run where there is no .mcp.json (issue 19 item 12): the path once, and what to do next,
// both for --config naming a missing file and for the default ./.mcp.json of an empty folder.
import { execFile } from 'node:child_process';
import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { CLI, REPO, tempDir } from '../helpers/gateway.js';
import { runCli, type CliResult } from './run-cli.js';

/** Runs the CLI in `cwd` with no --config (so it reads ./.mcp.json there). */
async function runIn(cwd: string, args: string[]): Promise<CliResult> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [CLI, ...args, '--data-dir', path.join(cwd, 'data')], { cwd, timeout: 60_000, env: { ...process.env, NO_COLOR: '1' } });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: unknown; stdout?: string; stderr?: string; message: string };
    return { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout ?? '', stderr: e.stderr ?? e.message };
  }
}

describe('no config file', () => {
  it('names the file once and says to pass --config (the demo) or import a client config; exit 2', async () => {
    const dir = await tempDir();
    const missing = path.join(dir, '.mcp.json');
    const { code, stderr } = await runCli(['tools', '--config', missing], path.join(dir, 'data'));
    expect(code).toBe(2);
    expect(stderr.split(missing).length - 1).toBe(1);
    expect(stderr).toContain(`--config ${path.join(REPO, 'examples/demo.mcp.json')}`);
    expect(stderr).toMatch(/copy the "mcpServers" object of your \.mcp\.json \(Claude Code\)/);
  });

  it('run in an empty folder without --config: names ./.mcp.json there once, with the same hint; exit 2', async () => {
    const empty = await realpath(await tempDir('switchboard-empty-cwd-'));
    const expected = path.join(empty, '.mcp.json');
    for (const command of [['servers'], ['tools'], ['call', 'x_echo']]) {
      const { code, stderr } = await runIn(empty, command);
      expect(code, command.join(' ')).toBe(2);
      expect(stderr.split(expected).length - 1, stderr).toBe(1);
      expect(stderr).toContain('file not found');
      expect(stderr).toContain(`--config ${path.join(REPO, 'examples/demo.mcp.json')}`);
    }
    // Reading metrics needs no config: without one, every recorded server is shown.
    const metrics = await runIn(empty, ['metrics']);
    expect(metrics.code, metrics.stderr).toBe(0);
    expect(metrics.stdout).toContain('No calls recorded (no store yet at');
  });
});
