// The package as users install it (issue 16 item 4): `npm pack`, then `npm install -g` of the tarball
// into a clean prefix. Only runtime dependencies arrive (no test toolchain, no dev tools), the
// install scripts work outside the repository, and the installed `switchboard` runs: --help, and
// `switchboard connect` serving a real server through a daemon it starts (stopped afterwards).
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { describe, expect, it } from 'vitest';
import { REPO, npmServer, tempDir, writeConfig } from '../helpers/gateway.js';

const run = promisify(execFile);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

describe('npm pack, then npm install -g of the tarball in a clean prefix', () => {
  it('installs runtime dependencies only, and the installed switchboard runs --help and connect', { timeout: 900_000 }, async () => {
    const dir = await tempDir('switchboard-pack-');
    // --ignore-scripts: dist/ is built by the test command already, and re-running tsc (prepare) here
    // would rewrite dist/ under the other tests' feet.
    const { stdout } = await run(npm, ['pack', '--ignore-scripts', '--pack-destination', dir, '--json'], { cwd: REPO, maxBuffer: 64 * 1024 * 1024, timeout: 300_000 });
    const [packed] = JSON.parse(stdout.slice(stdout.indexOf('['))) as Array<{ filename: string; files: Array<{ path: string }> }>;
    const files = packed!.files.map((f) => f.path);
    expect(files).toContain('dist/bundle/main.js');
    expect(files).toContain('bin/switchboard.js');
    // The web dashboard ships built: users need no build step (docs/dashboard.md).
    expect(files).toContain('dist/ui/index.html');
    expect(files.some((f) => /^dist\/ui\/assets\/index-[\w-]+\.js$/.test(f))).toBe(true);
    expect(files.filter((f) => f.startsWith('ui/'))).toEqual([]);
    expect(files.filter((f) => f.startsWith('test/') || f.startsWith('tools/') || f.startsWith('src/'))).toEqual([]);

    const prefix = path.join(dir, 'prefix');
    // Only the registry's packages (npm's cache first); no network besides the registry.
    await run(npm, ['install', '-g', '--prefix', prefix, path.join(dir, packed!.filename), '--no-audit', '--no-fund', '--prefer-offline'], { cwd: dir, maxBuffer: 64 * 1024 * 1024, timeout: 780_000 });
    const installed = path.join(prefix, 'lib', 'node_modules', 'switchboard');
    const deps = readdirSync(path.join(installed, 'node_modules'));
    for (const dev of ['vitest', 'typescript', 'tsx', 'minisearch']) expect(deps).not.toContain(dev);
    expect(existsSync(path.join(installed, 'node_modules', '@modelcontextprotocol', 'server-everything'))).toBe(false);
    expect(existsSync(path.join(installed, 'tools'))).toBe(false);

    const bin = path.join(prefix, 'bin', 'switchboard');
    const help = await run(bin, ['--help']);
    for (const command of ['serve', 'connect', 'daemon', 'import', 'install', 'doctor']) expect(help.stdout).toContain(command);

    const config = await writeConfig({ memory: npmServer('memory') });
    const dataDir = path.join(dir, 'data');
    const client = new Client({ name: 'packed', version: '1' }, { capabilities: {} });
    await client.connect(new StdioClientTransport({ command: bin, args: ['connect', '--config', config, '--data-dir', dataDir], cwd: dir, stderr: 'pipe' }));
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toContain('memory_read_graph');
    } finally {
      await client.close();
      await run(bin, ['daemon', 'stop', '--data-dir', dataDir, '--config', config]);
    }
  });
});
