// A first run is not silent while servers start (issue 19 item 6): each server's start and its
// answer (or failure) are reported once: as info log lines when stderr is not a terminal (checked
// here through the real CLI); on a terminal as one line rewritten in place and erased once the
// servers are listed, so a command's output (the `switchboard servers` table) comes first, or as plain
// lines where log lines may come between.
import { EventEmitter } from 'node:events';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { reportStartProgress } from '../../src/cli/progress.js';
import { moduleLogger } from '../../src/logging/logger.js';
import type { Connection } from '../../src/servers/connection.js';
import type { ServerPool } from '../../src/servers/pool.js';
import { npmServer, tempDir, writeConfig } from '../helpers/gateway.js';
import { runCli } from './run-cli.js';

/** What a terminal shows after `written` (no line longer than the width): \r and ESC[K clear the current line. */
function screen(written: string): string[] {
  const lines = [''];
  for (const part of written.split(/(\r|\x1b\[K|\n)/)) {
    if (part === '\n') lines.push('');
    else if (part === '\r' || part === '\x1b[K') lines[lines.length - 1] = '';
    else lines[lines.length - 1] += part;
  }
  return lines;
}

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

  it('is one line on a terminal, rewritten in place and erased before the command prints', () => {
    const pool = new EventEmitter() as unknown as ServerPool;
    let written = '';
    const terminal = { isTTY: true, columns: 200, write: (text: string) => ((written += text), true) } as unknown as NodeJS.WriteStream;
    const stop = reportStartProgress(pool, moduleLogger('test'), terminal, { inPlace: true });
    const connection = (key: string, state: string, lastError?: string) => ({ key, state, status: () => ({ lastError }) }) as unknown as Connection;
    const emit = (c: Connection) => (pool as unknown as EventEmitter).emit('state', c);
    emit(connection('memory', 'connecting'));
    emit(connection('ghost', 'connecting'));
    expect(screen(written)).toEqual(['switchboard: starting 2 server(s): 0 answered, waiting for memory, ghost']);
    emit(connection('ghost', 'failed', 'command not found'));
    emit(connection('memory', 'connected'));
    emit(connection('ghost', 'connecting')); // a retry: not reported again
    expect(screen(written)).toEqual(['switchboard: starting 2 server(s): 1 answered, 1 failed (ghost)']);
    expect(written).not.toContain('\n');
    stop();
    expect(screen(written)).toEqual(['']);
  });

  it('is one plain line per event on a terminal where log lines may come between', () => {
    const pool = new EventEmitter() as unknown as ServerPool;
    let written = '';
    const terminal = { isTTY: true, columns: 200, write: (text: string) => ((written += text), true) } as unknown as NodeJS.WriteStream;
    const stop = reportStartProgress(pool, moduleLogger('test'), terminal);
    const emit = (key: string, state: string) => (pool as unknown as EventEmitter).emit('state', { key, state, status: () => ({ lastError: 'command not found' }) });
    emit('ghost', 'connecting');
    emit('ghost', 'failed');
    stop();
    expect(written).toBe('switchboard: ghost starting...\nswitchboard: ghost failed: command not found\n');
  });
});
