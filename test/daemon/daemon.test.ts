// The daemon and the shim with real processes (issue 16 items 1 and 2): `switchboard daemon
// start|status|stop` (a second start refused, a stale pid recovered, stop leaves no process), ten
// shims started at once sharing one daemon and one server process, a shim relaying calls, progress,
// cancellation and sampling for its own client only, views by flag, and a shim that survives its
// daemon being killed (calls in flight fail clearly, the client hears list_changed, calls work again).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CLI, REPO, descendants, isAlive, newClient, npmServer, waitFor, writeConfig } from '../helpers/gateway.js';
import { runCli } from '../cli/run-cli.js';

const ANY = z.any();
interface Setup {
  config: string;
  dataDir: string;
}
const started: Setup[] = [];
const clients: Client[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => undefined)));
  for (const setup of started.splice(0)) await runCli(['daemon', 'stop', '--config', setup.config], setup.dataDir);
});

async function setup(servers: Record<string, unknown> = { memory: npmServer('memory') }): Promise<Setup> {
  const config = await writeConfig(servers);
  const result = { config, dataDir: path.join(path.dirname(config), 'data') };
  started.push(result);
  return result;
}

async function state(dataDir: string): Promise<{ pid: number; url: string }> {
  return JSON.parse(await readFile(path.join(dataDir, 'daemon', 'state.json'), 'utf8')) as { pid: number; url: string };
}

async function shim(s: Setup, args: string[] = [], client: Client = newClient()): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'connect', '--config', s.config, '--data-dir', s.dataDir, ...args],
    cwd: REPO,
    env: { ...(process.env as Record<string, string>), NO_COLOR: '1' },
    stderr: 'pipe',
  });
  clients.push(client);
  await client.connect(transport);
  return client;
}

/** PIDs of the daemon's descendants whose command line names `what`. */
async function processesOf(pid: number, what: string): Promise<number[]> {
  const found: number[] = [];
  for (const child of await descendants(pid)) {
    const cmdline = await readFile(`/proc/${child}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.includes(what)) found.push(child);
  }
  return found;
}

describe('switchboard daemon', () => {
  it('starts once per data dir, reports its status, recovers a stale pid, and stops leaving no process', async () => {
    const s = await setup();
    const start = await runCli(['daemon', 'start', '--config', s.config, '--json'], s.dataDir);
    expect(start.code, start.stderr).toBe(0);
    const first = JSON.parse(start.stdout) as { started: boolean; pid: number; url: string };
    expect(first).toMatchObject({ started: true, pid: expect.any(Number), url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/) });
    // Files of the data dir are the user's only.
    for (const file of ['state.json', 'token', 'daemon.lock']) {
      const { stat } = await import('node:fs/promises');
      expect(((await stat(path.join(s.dataDir, 'daemon', file))).mode & 0o777).toString(8)).toBe('600');
    }
    const again = await runCli(['daemon', 'start', '--config', s.config], s.dataDir);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`pid ${first.pid}`);
    // Without its token the daemon answers nothing but health checks.
    expect((await fetch(`${first.url}/api/servers`)).status).toBe(401);

    const client = await shim(s);
    await client.callTool({ name: 'memory_read_graph', arguments: {} });
    const status = await runCli(['daemon', 'status', '--config', s.config, '--json'], s.dataDir);
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ running: true, pid: first.pid, clients: 1, uptimeMs: expect.any(Number), servers: [expect.objectContaining({ key: 'memory', state: 'connected' })] });
    const text = await runCli(['daemon', 'status', '--config', s.config], s.dataDir);
    expect(text.stdout).toMatch(/running, pid \d+/);
    expect(text.stdout).toMatch(/1 client session\(s\) connected/);
    const servers = await processesOf(first.pid, 'server-memory');
    expect(servers).toHaveLength(1);

    // A daemon killed outright leaves a stale lock and state: status says so, the next start recovers.
    process.kill(-first.pid, 'SIGKILL');
    await waitFor(() => !isAlive(first.pid), 'the killed daemon to go');
    const stale = await runCli(['daemon', 'status', '--config', s.config], s.dataDir);
    expect(stale.code).toBe(3);
    expect(stale.stdout).toContain('stale');
    const restart = await runCli(['daemon', 'start', '--config', s.config, '--json'], s.dataDir);
    expect(restart.code, restart.stderr).toBe(0);
    const second = JSON.parse(restart.stdout) as { pid: number };
    expect(second.pid).not.toBe(first.pid);

    const stop = await runCli(['daemon', 'stop', '--config', s.config], s.dataDir);
    expect(stop.code).toBe(0);
    expect(stop.stdout).toContain(`pid ${second.pid}`);
    expect(isAlive(second.pid)).toBe(false);
    expect(await descendants(second.pid)).toEqual([]);
    const none = await runCli(['daemon', 'status', '--config', s.config], s.dataDir);
    expect(none.code).toBe(3);
    expect((await runCli(['daemon', 'stop', '--config', s.config], s.dataDir)).stdout).toContain('No daemon');
  });
});

describe('switchboard connect', () => {
  it('ten shims started at once share one daemon and one server process', async () => {
    const s = await setup();
    const shims = await Promise.all(Array.from({ length: 10 }, () => shim(s)));
    const daemon = await state(s.dataDir);
    for (const client of shims) {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain('memory_read_graph');
    }
    // One after another: server-memory rewrites its file per call, and concurrent writes of its own race.
    for (const [i, client] of shims.entries()) await client.callTool({ name: 'memory_create_entities', arguments: { entities: [{ name: `e${i}`, entityType: 'test', observations: [] }] } });
    const graph = await shims[0]!.callTool({ name: 'memory_read_graph', arguments: {} });
    for (let i = 0; i < 10; i++) expect(JSON.stringify(graph)).toContain(`e${i}`);
    expect(await processesOf(daemon.pid, 'server-memory')).toHaveLength(1);
    // Every shim reached the same daemon: its state names one pid, and it counts ten sessions.
    expect((await state(s.dataDir)).pid).toBe(daemon.pid);
    const health = (await (await fetch(`${daemon.url}/healthz`)).json()) as { sessions: number };
    expect(health.sessions).toBe(10);
  });

  it('relays progress, cancellation and sampling for its own client only; --server and --mode pick the view', async () => {
    const s = await setup({ everything: npmServer('everything'), memory: npmServer('memory') });
    const asked = { a: 0, b: 0 };
    const sampler = (who: 'a' | 'b') => {
      const client = newClient({ sampling: {} });
      client.setRequestHandler('sampling/createMessage', async () => {
        asked[who]++;
        return { model: 'stand-in', role: 'assistant', content: { type: 'text', text: `sampled by ${who}` } };
      });
      return client;
    };
    const [a, b] = await Promise.all([shim(s, [], sampler('a')), shim(s, [], sampler('b'))]);
    const sampled = await a.callTool({ name: 'everything_trigger-sampling-request', arguments: { prompt: 'hello' } });
    expect(JSON.stringify(sampled)).toContain('sampled by a');
    expect(asked).toEqual({ a: 1, b: 0 });

    let progress = 0;
    await b.request({ method: 'tools/call', params: { name: 'everything_trigger-long-running-operation', arguments: { duration: 0.6, steps: 3 } } }, ANY, { onprogress: () => progress++ });
    expect(progress).toBeGreaterThanOrEqual(2);
    const abort = new AbortController();
    let heard = 0;
    const outcome = await b
      .request({ method: 'tools/call', params: { name: 'everything_trigger-long-running-operation', arguments: { duration: 30, steps: 30 } } }, ANY, {
        signal: abort.signal,
        onprogress: () => {
          if (++heard === 1) abort.abort('Esc');
        },
      })
      .then(
        () => 'answered',
        () => 'cancelled',
      );
    expect(outcome).toBe('cancelled');
    const daemon = await state(s.dataDir);
    const calls = await waitFor(async () => {
      const { events } = (await (await fetch(`${daemon.url}/api/activity?format=json&tool=trigger-long-running-operation`, { headers: { authorization: `Bearer ${(await readFile(path.join(s.dataDir, 'daemon', 'token'), 'utf8')).trim()}` } })).json()) as { events: Array<{ status: string }> };
      return events.length === 2 && events;
    }, 'both long operations in the daemon activity');
    expect(calls.map((e) => e.status)).toEqual(['ok', 'cancelled']);

    const one = await shim(s, ['--server', 'memory']);
    expect((await one.listTools()).tools.map((t) => t.name)).toContain('read_graph');
    const meta = await shim(s, ['--mode', 'meta']);
    expect((await meta.listTools()).tools.map((t) => t.name).sort()).toEqual(['tool_capabilities', 'tool_discovery', 'tool_execute']);
  });

  it('survives its daemon being killed: the call in flight fails clearly, the client hears list_changed, calls work again', async () => {
    const s = await setup({ everything: npmServer('everything') });
    const client = newClient();
    let listChanged = 0;
    client.setNotificationHandler('notifications/tools/list_changed', async () => {
      listChanged++;
    });
    await shim(s, [], client);
    await client.callTool({ name: 'everything_echo', arguments: { message: 'before' } });
    const first = await state(s.dataDir);
    const inFlight = client.request({ method: 'tools/call', params: { name: 'everything_trigger-long-running-operation', arguments: { duration: 30, steps: 30 } } }, ANY).then(
      () => 'answered',
      (error: Error) => error.message,
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    process.kill(-first.pid, 'SIGKILL');
    expect(await inFlight).toMatch(/daemon went away/);
    const echoed = await waitFor(async () => {
      try {
        return await client.callTool({ name: 'everything_echo', arguments: { message: 'after' } });
      } catch {
        return undefined; // still reconnecting
      }
    }, 'a call through the restarted daemon', 60_000);
    expect(JSON.stringify(echoed)).toContain('after');
    expect((await state(s.dataDir)).pid).not.toBe(first.pid);
    await waitFor(() => listChanged > 0, 'list_changed after the reconnect');
  });

  it('opens its session again when the daemon reaped it as idle, and the call that found it gone still gets its answer', async () => {
    const config = await writeConfig({ memory: npmServer('memory') }, { sessionIdleMs: 1000 });
    const s = { config, dataDir: path.join(path.dirname(config), 'data') };
    started.push(s);
    const client = await shim(s);
    await client.callTool({ name: 'memory_read_graph', arguments: {} });
    const daemon = await state(s.dataDir);
    await waitFor(async () => ((await (await fetch(`${daemon.url}/healthz`)).json()) as { sessions: number }).sessions === 0, 'the idle session to be reaped');
    const again = await client.callTool({ name: 'memory_read_graph', arguments: {} });
    expect(JSON.stringify(again)).toContain('entities');
    expect((await state(s.dataDir)).pid).toBe(daemon.pid); // the same daemon: only the session was new
  });
});
