// Switchboard listed in its own config (issue 19 item 2): the README's stdio example points
// Switchboard at the .mcp.json the client writes Switchboard's own entry into. Real nested starts:
// the entry that runs this gateway is skipped with a warning; one that hides it behind a wrapper
// starts a second gateway, which sees the inherited marker naming its own config and refuses, so the
// chain stops at one level instead of growing without end.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, npmServer, tempDir, writeConfig } from '../helpers/gateway.js';
import { runCli } from '../cli/run-cli.js';

describe('a gateway in its own config', () => {
  it('skips the entry that runs this gateway, with a warning, and serves the rest', async () => {
    const dir = await tempDir('switchboard-self-');
    const config = path.join(dir, '.mcp.json');
    await writeConfig({ sb: { command: process.execPath, args: [CLI, 'serve', '--config', config] }, memory: npmServer('memory', [], { MEMORY_FILE_PATH: path.join(dir, 'm.jsonl') }) }, undefined, dir);
    const { code, stdout, stderr } = await runCli(['tools', '--json', '--config', config, '--log-level', 'warn'], path.join(dir, 'data'), 30_000);
    expect(code, stderr).toBe(0);
    const tools = JSON.parse(stdout) as Array<{ server: string }>;
    expect(new Set(tools.map((t) => t.server))).toEqual(new Set(['memory']));
    expect(stderr).toContain('server \\"sb\\": skipped: it runs this gateway');
  });

  it('stops a copy started through a wrapper at the first level (inherited marker)', async () => {
    const dir = await tempDir('switchboard-self-');
    const config = path.join(dir, '.mcp.json');
    const wrapped = `exec "${process.execPath}" "${CLI}" serve --config "${config}"`;
    await writeConfig({ wrapped: { command: '/bin/sh', args: ['-c', wrapped] }, memory: npmServer('memory', [], { MEMORY_FILE_PATH: path.join(dir, 'm.jsonl') }) }, undefined, dir);
    const started = Date.now();
    const { code, stdout } = await runCli(['servers', '--json', '--config', config], path.join(dir, 'data'), 30_000);
    expect(Date.now() - started).toBeLessThan(25_000); // loose: without the marker this ran into the timeout
    expect(code).toBe(1);
    const rows = JSON.parse(stdout) as Array<{ key: string; state: string; lastError: string | null; tools: number }>;
    expect(rows.find((r) => r.key === 'memory')!.tools).toBeGreaterThan(0);
    const wrappedRow = rows.find((r) => r.key === 'wrapped')!;
    expect(wrappedRow.lastError).toMatch(/exited with code 2 while starting .*started by a Switchboard gateway serving the same file/);
  });
});
