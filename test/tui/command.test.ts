// `switchboard tui` as a command: a bad --url and a stdin that is not a terminal are usage errors (exit 2) that say
// what to do, and the command is listed in the help.
import { describe, expect, it } from 'vitest';
import { spawnCli, tempDir } from '../helpers/gateway.js';

describe('switchboard tui (command line)', () => {
  it('refuses a bad --url and a non-interactive stdin with exit code 2', async () => {
    const dataDir = await tempDir();
    const badUrl = await spawnCli(['tui', '--url', 'ftp://example.test', '--data-dir', dataDir]);
    expect(badUrl.code).toBe(2);
    expect(badUrl.stderr).toContain('--url must be an http:// or https:// URL of a gateway (got "ftp://example.test")');
    const piped = await spawnCli(['tui', '--url', 'http://127.0.0.1:9', '--data-dir', dataDir]);
    expect(piped.code).toBe(2);
    expect(piped.stderr).toContain('switchboard tui needs an interactive terminal');
    const help = await spawnCli(['--help']);
    expect(help.stdout).toMatch(/tui \[options\]\s+terminal UI over a running gateway/);
  });
});
