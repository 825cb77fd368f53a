// A first run is not silent while servers start (issue 19 item 6): each server's start and its
// answer (or failure) are reported once: as info log lines when stderr is not a terminal (checked
// here through the real CLI), as plain lines on a terminal.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { npmServer, tempDir, writeConfig } from '../helpers/gateway.js';
import { runCli } from './run-cli.js';

describe('start-up progress', () => {
  it('logs which servers are starting and which answered or failed, once each', async () => {
    const dir = await tempDir('switchboard-progress-');
    const config = await writeConfig({ memory: npmServer('memory', [], { MEMORY_FILE_PATH: path.join(dir, 'm.jsonl') }), ghost: { command: 'switchboard-test-no-such-command' } }, undefined, dir);
    const { stderr } = await runCli(['tools', '--json', '--config', config, '--log-level', 'info'], path.join(dir, 'data'));
    const records = stderr.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { server?: string; msg: string; ms?: number; err?: string });
    const progress = records.filter((r) => /^server (starting|answered|failed)$/.test(r.msg)).map((r) => `${r.server} ${r.msg}`);
    expect(progress.sort()).toEqual(['ghost server failed', 'ghost server starting', 'memory server answered', 'memory server starting']);
    expect(records.find((r) => r.msg === 'server answered')!.ms).toBeGreaterThan(0);
    expect(records.find((r) => r.msg === 'server failed')!.err).toContain('command not found');
  });
});
