// No child outlives the gateway: on each exit path of `serve --stdio` (stdin closed, SIGTERM, SIGINT,
// SIGHUP, an uncaught error) a server tree that ignores stdin closing, SIGTERM and SIGINT, with a grandchild
// MCP server and a detached grandchild in its own session, is gone afterwards, checked PID by PID.
// Also when the input ends, or a signal comes, while the gateway still loads, and for a second
// signal while the servers stop, on the stdio face and on the HTTP face with two clients.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI, REPO, connectHttp, dataDirFor, descendants, fixtureServer, isAlive, isRunning, npmServer, startHttpGateway, tempDir, waitFor, writeConfig } from '../helpers/gateway.js';

type Tree = { wrapper: number; server: number; sleeper: number };
type Ended = { code: number | null; signal: string | null };
const leftovers: number[] = [];

/**
 * Watches a gateway from its start for its end ('close': it has exited and its output is read to the
 * end, as its last log lines come after 'exit'); `within(ms)` waits for it, failing after `ms`.
 */
function watchEnd(gateway: ChildProcess) {
  const closed = new Promise<Ended>((resolve) => gateway.once('close', (code, signal) => resolve({ code, signal })));
  const within = (ms: number) =>
    Promise.race([closed, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for the gateway to exit`)), ms).unref())]);
  return { closed, within };
}

afterEach(() => {
  // Whatever a failed run left behind, by PID (we started these).
  for (const pid of leftovers.splice(0)) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
});

async function runGateway(exit: (gateway: ReturnType<typeof spawn>) => void): Promise<{ tree: Tree; code: number | null; signal: string | null; stderr: string }> {
  const dir = await tempDir('switchboard-orphans-');
  const pidFile = path.join(dir, 'tree.json');
  const config = await writeConfig({ stubborn: fixtureServer('stubborn-tree.ts', [], { STUBBORN_PID_FILE: pidFile }) }, { resilience: { shutdownGraceMs: 300 } }, dir);
  const preload = path.join(REPO, 'test/fixtures/crash-on-sigusr2.mjs');
  const gateway = spawn(process.execPath, ['--import', preload, CLI, 'serve', '--stdio', '--config', config, ...dataDirFor(config)], { cwd: REPO, stdio: ['pipe', 'pipe', 'pipe'] });
  leftovers.push(gateway.pid!);
  let stderr = '';
  gateway.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  const end = watchEnd(gateway);
  const lines: Array<{ id?: number; result?: { tools: Array<{ name: string }> } }> = [];
  createInterface({ input: gateway.stdout! }).on('line', (line) => lines.push(JSON.parse(line)));
  const send = (message: unknown) => gateway.stdin!.write(`${JSON.stringify(message)}\n`);
  send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
  await waitFor(() => lines.find((m) => m.id === 1), 'initialize answer', 30_000);
  send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
  const listed = await waitFor(() => lines.find((m) => m.id === 2), 'tools/list answer', 30_000);
  expect(listed.result!.tools.map((t) => t.name)).toContain('stubborn_ok');
  const tree = await waitFor(() => existsSync(pidFile) && (JSON.parse(readFileSync(pidFile, 'utf8')) as Tree), 'the tree PID file');
  leftovers.push(tree.wrapper, tree.server, tree.sleeper);
  for (const pid of Object.values(tree)) expect(isAlive(pid)).toBe(true);
  exit(gateway);
  const { code, signal } = await end.within(15_000);
  return { tree, code, signal, stderr };
}

async function expectAllGone(tree: Tree): Promise<void> {
  // The gateway has exited: by then nothing it started may still run (a short wait for the kernel).
  await waitFor(() => Object.values(tree).every((pid) => !isRunning(pid)), `every process of the tree ${JSON.stringify(tree)} to be gone`, 2_000);
}

describe('no child outlives the gateway (a tree that ignores SIGTERM, with grandchildren)', () => {
  it('stdin closed by the client', async () => {
    const run = await runGateway((g) => g.stdin!.end());
    expect(run.code).toBe(0);
    await expectAllGone(run.tree);
  });

  it('SIGTERM', async () => {
    const run = await runGateway((g) => g.kill('SIGTERM'));
    expect(run.code).toBe(0);
    await expectAllGone(run.tree);
  });

  it('SIGINT', async () => {
    const run = await runGateway((g) => g.kill('SIGINT'));
    expect(run.code).toBe(0);
    await expectAllGone(run.tree);
  });

  it('SIGHUP (the terminal it runs in was closed)', async () => {
    const run = await runGateway((g) => g.kill('SIGHUP'));
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('"reason":"SIGHUP"');
    await expectAllGone(run.tree);
  });

  it('a second SIGTERM while the servers stop (a double Ctrl-C)', async () => {
    // The stop gives the tree its grace; the second signal comes within it. With no handler left for
    // it, its default action ended the gateway without the exit hook, and the tree stayed.
    const run = await runGateway((g) => {
      g.kill('SIGTERM');
      setTimeout(() => g.kill('SIGTERM'), 150);
    });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('second signal while stopping');
    await expectAllGone(run.tree);
  });

  it('an uncaught error', async () => {
    const run = await runGateway((g) => g.kill('SIGUSR2'));
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('injected uncaught error');
    await expectAllGone(run.tree);
  });
});

describe('the HTTP face with two clients', () => {
  it('a second SIGTERM while stopping: the gateway exits and the tree both clients used is gone', async () => {
    // Signals are the process's, whichever face and however many clients: both clients' calls ran on
    // the one stubborn tree, which ignores stdin closing and SIGTERM.
    const dir = await tempDir('switchboard-orphans-');
    const pidFile = path.join(dir, 'tree.json');
    const config = await writeConfig({ stubborn: fixtureServer('stubborn-tree.ts', [], { STUBBORN_PID_FILE: pidFile }) }, { resilience: { shutdownGraceMs: 300 } }, dir);
    const gateway = await startHttpGateway(config);
    leftovers.push(gateway.child.pid!);
    const end = watchEnd(gateway.child);
    const clients = await Promise.all([connectHttp(gateway.url), connectHttp(gateway.url)]);
    const answers = await Promise.all(clients.map((c) => c.client.callTool({ name: 'stubborn_ok', arguments: {} })));
    for (const answer of answers) expect(answer.isError).toBeFalsy();
    const tree = await waitFor(() => existsSync(pidFile) && (JSON.parse(readFileSync(pidFile, 'utf8')) as Tree), 'the tree PID file');
    leftovers.push(tree.wrapper, tree.server, tree.sleeper);
    gateway.child.kill('SIGTERM');
    setTimeout(() => gateway.child.kill('SIGTERM'), 150);
    const ended = await end.within(15_000);
    expect(ended).toEqual({ code: 0, signal: null });
    expect(gateway.log.text()).toContain('second signal while stopping');
    await expectAllGone(tree);
    await Promise.all(clients.map((c) => c.client.close().catch(() => undefined)));
  });
});

/**
 * A gateway on a config whose one server `serve` starts early: `sh` writes its PID to a file (each
 * start appends one) and runs `then`. `preload`: node --import files for the gateway.
 */
async function earlyServerGateway(then: string, preload: string[] = [], env: Record<string, string> = {}) {
  const dir = await tempDir('switchboard-orphans-');
  const pidFile = path.join(dir, 'server.pid');
  const server = { command: 'sh', args: ['-c', `echo $$ >> '${pidFile}'; ${then}`] };
  const config = await writeConfig({ early: server }, undefined, dir);
  const gateway = spawn(process.execPath, [...preload.flatMap((file) => ['--import', path.join(REPO, 'test/fixtures', file)]), CLI, 'serve', '--stdio', '--config', config, ...dataDirFor(config)], {
    cwd: REPO,
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  leftovers.push(gateway.pid!);
  let stderr = '';
  gateway.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  gateway.stdout!.resume();
  const end = watchEnd(gateway);
  const started = () => (existsSync(pidFile) ? readFileSync(pidFile, 'utf8').split('\n').filter(Boolean).map(Number) : []);
  // Every process of the server's trees seen while the gateway runs (a grandchild orphaned at the
  // end is still checked by PID).
  const seen = new Set<number>();
  const look = async () => {
    for (const pid of started()) for (const each of [pid, ...(await descendants(pid))]) seen.add(each);
  };
  const watching = setInterval(() => void look(), 100);
  void end.closed.then(() => clearInterval(watching));
  return {
    gateway,
    stderr: () => stderr,
    /** The PIDs of every start of the server so far, and of their descendants seen (also recorded for cleanup). */
    pids: () => {
      for (const pid of started()) seen.add(pid);
      const all = [...seen];
      for (const pid of all) if (!leftovers.includes(pid)) leftovers.push(pid);
      return all;
    },
    /** Waits for the gateway to exit by itself; its log is in the error when it does not. */
    ended: () =>
      end.within(20_000).catch((error: Error) => {
        throw new Error(`${error.message}; its log:\n${stderr}`);
      }),
  };
}

const everythingCommand = () => {
  const everything = npmServer('everything');
  return `exec '${everything.command}' ${everything.args.map((a) => `'${a}'`).join(' ')}`;
};

describe('stdin closed while the gateway still loads', () => {
  it('a client that writes initialize and closes at once: the gateway exits and stops the server it started early', async () => {
    // `serve` reads the first line before the gateway has loaded (stdin-peek.ts); the end of input
    // comes right behind it, while nobody listens yet. Once, the gateway missed it and never exited.
    const run = await earlyServerGateway(everythingCommand());
    const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };
    run.gateway.stdin!.end(`${JSON.stringify(initialize)}\n`);
    expect(await run.ended()).toEqual({ code: 0, signal: null });
    expect(run.stderr()).toContain('"reason":"stdin closed"');
    expect(run.stderr()).toContain('servers started early'); // the early start (and its look at stdin) did run
    const pids = run.pids();
    expect(pids.length).toBeGreaterThan(0);
    for (const pid of pids) await waitFor(() => !isRunning(pid), `the server (pid ${pid}) to be gone`, 2_000);
  });
});

describe('a signal while the gateway still loads (its serve module held back by a preload)', () => {
  // serve starts the config's only server before its own modules load (serve-prestart.ts); the
  // preload holds serve's chunk back, so the signal surely comes before serve's shutdown is in place.
  // Once, the signal's default action ended the gateway there without its exit hook, and the server stayed.
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
    it(`${signal}: the early servers are stopped and the gateway exits by itself`, async () => {
      const run = await earlyServerGateway(everythingCommand(), ['slow-serve-load.mjs'], { SLOW_SERVE_LOAD_MS: '3000' });
      await waitFor(() => run.pids().length > 0, 'the early server to start');
      run.gateway.kill(signal);
      expect(await run.ended()).toEqual({ code: 0, signal: null }); // not ended by the signal's default action
      expect(run.stderr()).toContain(`${signal} while starting`);
      for (const pid of run.pids()) await waitFor(() => !isRunning(pid), `the server (pid ${pid}) to be gone`, 2_000);
    });
  }

  it("serve's shutdown takes over when it finishes loading before the early stop does", async () => {
    // The server outlasts its stdin closing and SIGTERM (sh ignores TERM, and waits on a sleep that
    // ignores it too), so the early stop takes its two grace periods; serve, held back half a second,
    // takes the signal over meanwhile and stops everything itself.
    const run = await earlyServerGateway(`trap '' TERM; ${everythingCommand().replace(/^exec /, '')}; sleep 60`, ['slow-serve-load.mjs'], { SLOW_SERVE_LOAD_MS: '500' });
    await waitFor(() => run.pids().length > 0, 'the early server to start');
    await waitFor(async () => (await descendants(run.pids()[0])).length > 0, 'the server under sh to run');
    run.gateway.kill('SIGTERM');
    expect(await run.ended()).toEqual({ code: 0, signal: null });
    expect(run.stderr()).toContain('SIGTERM while starting');
    expect(run.stderr()).toContain('"reason":"SIGTERM"'); // serve's own shutdown ran
    for (const pid of run.pids()) await waitFor(() => !isRunning(pid), `the server (pid ${pid}) to be gone`, 2_000);
  });
});

describe('the exit hook on its own', () => {
  it('SIGKILLs a tracked tree when the process exits without stopping it', async () => {
    const dir = await tempDir('switchboard-orphans-');
    const pidFile = path.join(dir, 'tree.json');
    const stubborn = fixtureServer('stubborn-tree.ts');
    // A process that spawns the tree, tracks it and exits at once: no orderly stop at all.
    const script = `
      import { spawn } from 'node:child_process';
      import { existsSync } from 'node:fs';
      import { trackTree } from ${JSON.stringify(path.join(REPO, 'dist/servers/process-tree.js'))};
      const child = spawn(${JSON.stringify(stubborn.command)}, ${JSON.stringify(stubborn.args)}, { cwd: ${JSON.stringify(REPO)}, env: { ...process.env, STUBBORN_PID_FILE: ${JSON.stringify(pidFile)} }, stdio: ['pipe', 'ignore', 'ignore'] });
      trackTree(child.pid);
      const wait = setInterval(() => { if (existsSync(${JSON.stringify(pidFile)})) { clearInterval(wait); setTimeout(() => process.exit(0), 300); } }, 50);
    `;
    const host = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: 'inherit' });
    leftovers.push(host.pid!);
    const code = await new Promise<number | null>((resolve) => host.once('exit', resolve));
    expect(code).toBe(0);
    const tree = JSON.parse(readFileSync(pidFile, 'utf8')) as Tree;
    leftovers.push(tree.wrapper, tree.server, tree.sleeper);
    await expectAllGone(tree);
  });
});
