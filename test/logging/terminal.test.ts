// The log on a terminal, through the bundled CLI: pino is part of the bundle, but its pretty printer
// runs in a worker thread that pino starts by file name, so src/logging/logger.ts takes pino's
// transport from node_modules. Run under a real pseudo-terminal (util-linux `script`): the lines come
// out pretty-printed (level names and colour, not JSON), and the gateway shuts down cleanly.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { CLI, REPO, dataDirFor, npmServer, writeConfig } from '../helpers/gateway.js';

const quote = (arg: string) => `'${arg.replace(/'/g, `'\\''`)}'`;

describe('the log on a terminal', () => {
  // util-linux's script(1) makes the pseudo-terminal (Debian's bsdutils, always installed there).
  const hasScript = spawnSync('script', ['--version'], { encoding: 'utf8' }).status === 0;
  it.skipIf(!hasScript)('is pretty-printed by pino-pretty, with the gateway bundled', { timeout: 60_000 }, async () => {
    const config = await writeConfig({ memory: npmServer('memory') });
    const command = [process.execPath, CLI, 'serve', '--stdio', '--config', config, ...dataDirFor(config), '--no-log-file'].map(quote).join(' ');
    // stdin at its end at once: the gateway starts, logs, and shuts down ("stdin closed").
    const run = spawnSync('script', ['-qec', `${command} < /dev/null`, '/dev/null'], { cwd: REPO, encoding: 'utf8', timeout: 50_000, env: { ...process.env, TERM: 'xterm' } });
    expect(run.error).toBeUndefined();
    const text = run.stdout.replace(/\x1b\[[0-9;]*m/g, '');
    expect(text).toMatch(/\[\d\d:\d\d:\d\d\.\d{3}\] INFO: configuration loaded/);
    expect(text).toMatch(/INFO: shutting down/);
    expect(run.stdout).toContain('\x1b['); // coloured
    expect(text).not.toContain('"level":30'); // no JSON lines
    expect(run.status).toBe(0);
  });
});
