// The command line as a user runs it: listings with --json, a call, and bad input (malformed or
// unknown config, a missing file, a server whose command does not exist, bad arguments).
import os from 'node:os';
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { CLI, REPO, npmServer, tempDir, writeConfig } from '../helpers/gateway.js';

/** One store for this file's CLI runs, outside $HOME. */
const TEST_DATA_DIR = path.join(os.tmpdir(), `switchboard-cli-data-${process.pid}-${Date.now()}`);

const run = promisify(execFile);

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, ...args, ...(args.includes('--data-dir') ? [] : ['--data-dir', TEST_DATA_DIR])], { cwd: REPO, timeout: 60_000, env: { ...process.env, NO_COLOR: '1' } });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('switchboard CLI', () => {
  let config: string;

  beforeAll(async () => {
    const dir = await tempDir();
    config = await writeConfig(
      {
        memory: npmServer('memory', [], { MEMORY_FILE_PATH: path.join(dir, 'memory.jsonl') }),
        ghost: { command: 'switchboard-test-no-such-command', args: [] },
        off: { command: 'node', disabled: true },
      },
      undefined,
      dir,
    );
  });

  it('servers --json shows each server with transport, state, tool count and last error', async () => {
    const { code, stdout } = await cli(['servers', '--json', '--config', config]);
    expect(code).toBe(1); // ghost failed
    const rows = JSON.parse(stdout) as Array<Record<string, unknown>>;
    const byKey = Object.fromEntries(rows.map((r) => [r.key, r]));
    expect(byKey.memory).toMatchObject({ transport: 'stdio', state: 'connected', lastError: null });
    expect(byKey.memory!.tools).toBeGreaterThan(5);
    expect(byKey.ghost).toMatchObject({ state: 'failed', tools: 0 });
    expect(String(byKey.ghost!.lastError)).toContain('command not found');
    expect(byKey.off).toMatchObject({ state: 'disabled' });
  });

  it('servers prints a table naming the failed server\u2019s error', async () => {
    const { code, stdout } = await cli(['servers', '--config', config]);
    expect(code).toBe(1); // ghost failed
    expect(stdout).toMatch(/^KEY\s+TRANSPORT\s+STATE\s+TOOLS\s+LAST ERROR/);
    expect(stdout).toMatch(/ghost\s+stdio\s+failed\s+0\s+.*command not found/);
  });

  it('tools lists exposed names of the working servers, filterable by server', async () => {
    const { code, stdout } = await cli(['tools', '--json', '--config', config, '--server', 'memory']);
    expect(code).toBe(0);
    const tools = JSON.parse(stdout) as Array<{ name: string; server: string; originalName: string }>;
    expect(tools.find((t) => t.name === 'memory_read_graph')).toMatchObject({ server: 'memory', originalName: 'read_graph' });
    const unknown = await cli(['tools', '--config', config, '--server', 'nope']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Unknown server "nope"');
  });

  it('call runs a tool by exposed name and prints the result as JSON', async () => {
    const created = await cli(['call', 'memory_create_entities', '{"entities":[{"name":"cli","entityType":"test","observations":["x"]}]}', '--config', config]);
    expect(created.code).toBe(0);
    const graph = await cli(['call', 'memory_read_graph', '--config', config]);
    expect(graph.code).toBe(0);
    expect(JSON.parse(graph.stdout).content[0].text).toContain('"cli"');
    const badJson = await cli(['call', 'memory_read_graph', '{nope', '--config', config]);
    expect(badJson.code).toBe(2);
    expect(badJson.stderr).toContain('JSON object');
    const typo = await cli(['call', 'memory_read_grap', '--config', config]);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('memory_read_graph');
  });

  it('exits 2 naming file, line and column for malformed JSON', async () => {
    const dir = await tempDir();
    const file = path.join(dir, '.mcp.json');
    await writeFile(file, '{\n  "mcpServers": {\n    "a": { "command": "x", }\n  ,\n}');
    for (const command of ['servers', 'serve']) {
      const { code, stderr } = await cli([command, '--config', file]);
      expect(code).toBe(2);
      expect(stderr).toContain(file);
      expect(stderr).toMatch(/line \d+/);
    }
  });

  it('exits 2 naming file, server and field for an invalid server entry', async () => {
    const file = await writeConfig({ web: { type: 'carrier-pigeon', url: 'http://127.0.0.1:1/mcp' } });
    const { code, stderr } = await cli(['servers', '--config', file]);
    expect(code).toBe(2);
    expect(stderr).toContain(file);
    expect(stderr).toContain('"web"');
    expect(stderr).toContain('type');
  });

  it('exits 2 for a misspelled setting and for a missing config file', async () => {
    const file = await writeConfig({}, { seperator: '-' });
    const typo = await cli(['servers', '--config', file]);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('seperator');
    const missing = await cli(['servers', '--config', '/nonexistent/switchboard/.mcp.json']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('/nonexistent/switchboard/.mcp.json');
  });

  it('exits 2 for a bad --port and 1 with a clear message when the port is taken', async () => {
    const bad = await cli(['serve', '--http', '--port', 'abc', '--config', config]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--port');
    const { createServer } = await import('node:net');
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const port = (holder.address() as { port: number }).port;
    try {
      const taken = await cli(['serve', '--http', '--port', String(port), '--config', config]);
      expect(taken.code).toBe(1);
      expect(taken.stderr).toContain('in use');
    } finally {
      holder.close();
    }
  });

  it('exits 2 for unknown options, with help', async () => {
    const { code, stderr } = await cli(['serve', '--bogus']);
    expect(code).toBe(2);
    expect(stderr).toContain('--bogus');
  });

  it('lists every command in help, suggests one for a typo, and gives a named command its whole help (test/cli/program.test.ts: what a run registers)', async () => {
    const names = ['serve', 'daemon', 'tui', 'connect', 'import', 'install', 'uninstall', 'doctor', 'login', 'logout', 'logs', 'servers', 'tools', 'call', 'metrics', 'changes', 'refresh', 'search', 'embed', 'bench', 'optimize', 'toolset', 'token', 'approve'];
    const help = await cli(['--help']);
    expect(help.code).toBe(0);
    const listed = [...help.stdout.matchAll(/^ {2}([a-z]+)\b/gm)].map((m) => m[1]);
    expect(listed).toEqual([...names, 'help']);
    // A typo still gets the suggestion, which needs every command registered.
    const typo = await cli(['serv']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('Did you mean serve?');
    // A named command, alone in its run, has its whole help (its subcommands too).
    const daemon = await cli(['daemon', '--help']);
    for (const sub of ['start', 'stop', 'status', 'logs']) expect(daemon.stdout).toMatch(new RegExp(`^  ${sub}\\b`, 'm'));
    const serve = await cli(['serve', '--help']);
    for (const flag of ['--stdio', '--http', '--mode <mode>', '--inbound-era <era>', '--data-dir <dir>']) expect(serve.stdout).toContain(flag);
    expect((await cli(['--version'])).stdout).toMatch(/^\d+\.\d+\.\d+/);
  });
});
