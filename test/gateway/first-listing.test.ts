// The first listing never waits on the slowest server: with a hanging, a garbage-printing and an
// exiting server configured next to a real npm server and a slow-but-good one, on a fresh data dir,
// the first tools/list answers within listTimeoutMs with the servers that answered; the slow one
// is announced with list_changed when it arrives; the failures show in /api/servers and the log,
// never as a stalled client. Real child processes throughout (test/fixtures/fault-server.ts).
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { connectHttp, connectStdio, fixtureServer, newClient, npmServer, startHttpGateway, tempDir, waitFor, writeConfig } from '../helpers/gateway.js';
import { post, INITIALIZE_PARAMS } from '../helpers/wire.js';
import { runCliJson } from '../cli/run-cli.js';

/**
 * The bound under test (the default is 3000 ms). Longer here so that server-memory surely answers in
 * time while four fixture servers compile on a loaded 2-core machine; the slow server answers well
 * after it, and the hung ones only fail after connectTimeoutMs, longer still.
 */
const LIST_TIMEOUT_MS = 6000;
const SLOW_START_MS = 12_000;
/** Slack over the bound for a loaded machine (the answer itself is cheap). */
const SLACK_MS = 3000;

async function mixedServers() {
  const scratch = await tempDir('switchboard-first-listing-');
  return {
    memory: npmServer('memory', [], { MEMORY_FILE_PATH: path.join(scratch, 'memory.jsonl') }),
    hang: fixtureServer('fault-server.ts', ['--slow-start', '600000']),
    garbage: fixtureServer('fault-server.ts', ['--garbage-only']),
    exits: fixtureServer('fault-server.ts', ['--exit-at-start']),
    slow: fixtureServer('fault-server.ts', ['--slow-start', String(SLOW_START_MS)]),
  };
}

/** connectTimeoutMs: long enough for the slow server (12 s + start), short enough to see the hung ones fail. */
const SETTINGS = { listTimeoutMs: LIST_TIMEOUT_MS, resilience: { connectTimeoutMs: 20_000 } };

type Names = { tools: Array<{ name: string }> };
const names = (listed: Names) => listed.tools.map((t) => t.name);

/** server-everything behind a shell that sleeps first: a real server that starts slowly. */
function sleepingEverything(seconds: number) {
  const everything = npmServer('everything');
  return { ...everything, command: 'sh', args: ['-c', `sleep ${seconds}; exec "$0" "$@"`, everything.command, ...everything.args] };
}

/** POST /api/toolsets (the config sets http.unauthenticatedAdmin). */
function postToolset(url: string, name: string, tools: Array<{ server: string; tool: string }>): Promise<Response> {
  return fetch(`${url}/api/toolsets`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name, tools }) });
}

describe('the first listing, bounded', () => {
  it('HTTP: answers within listTimeoutMs, announces the slow server, reports the failed ones', { timeout: 90_000 }, async () => {
    const config = await writeConfig(await mixedServers(), SETTINGS);
    const gateway = await startHttpGateway(config);
    const client = newClient();
    let listChanged = 0;
    client.setNotificationHandler('notifications/tools/list_changed', () => void listChanged++);
    const connected = await connectHttp(gateway.url, client);
    try {
      const started = performance.now();
      const first = await client.listTools();
      const ms = performance.now() - started;
      console.log(`first tools/list with hang, garbage, exits, slow and memory configured (fresh data dir): ${ms.toFixed(0)} ms, ${first.tools.length} tools`);
      expect(ms).toBeLessThan(LIST_TIMEOUT_MS + SLACK_MS);
      expect(names(first).some((n) => n.startsWith('memory_'))).toBe(true);
      expect(names(first).some((n) => n.startsWith('slow_'))).toBe(false);

      // The slow server arrives: the client hears list_changed and finds its tools.
      const arrived = performance.now();
      await waitFor(() => listChanged > 0, 'tools/list_changed after the slow server came up', 30_000);
      const later = await waitFor(async () => {
        const listed = await client.listTools();
        return names(listed).includes('slow_ok') && listed;
      }, 'the slow server\'s tools after list_changed', 10_000);
      console.log(`list_changed for the slow server ${(performance.now() - arrived + ms).toFixed(0)} ms after the first listing began`);
      expect(names(later)).toContain('slow_ok');
      expect(names(later).some((n) => n.startsWith('memory_'))).toBe(true);
      // A second listing does not wait for the servers that are still hanging.
      const again = performance.now();
      await client.listTools();
      expect(performance.now() - again).toBeLessThan(LIST_TIMEOUT_MS);

      // The failures are reported by the gateway, with their reasons.
      const failed = await waitFor(async () => {
        const { servers } = (await (await fetch(`${gateway.url}/api/servers`)).json()) as { servers: Array<{ key: string; state: string; error: string | null }> };
        const byKey = new Map(servers.map((s) => [s.key, s]));
        const down = ['hang', 'garbage', 'exits'].map((k) => byKey.get(k)!);
        return down.every((s) => s.state === 'failed' && s.error) && byKey.get('memory')!.state === 'connected' && byKey.get('slow')!.state === 'connected' ? down : undefined;
      }, 'hang, garbage and exits reported failed', 45_000);
      for (const server of failed) console.log(`/api/servers: ${server.key} ${server.state}: ${server.error}`);
      expect(failed.find((s) => s.key === 'exits')!.error).toMatch(/exit/i);
      expect(failed.find((s) => s.key === 'hang')!.error).toMatch(/no answer to initialize within 20000 ms/);
      // Log lines are written asynchronously: the state can be visible before its warning is read.
      const logged = await waitFor(() => {
        const servers = new Set(gateway.log.records().filter((r) => Number(r.level) >= 40 && typeof r.server === 'string').map((r) => r.server as string));
        return ['hang', 'garbage', 'exits'].every((key) => servers.has(key)) && servers;
      }, 'a warning for each failed server', 10_000);
      for (const key of ['hang', 'garbage', 'exits']) expect(logged).toContain(key);
    } finally {
      await connected.close();
      await gateway.close();
    }
  });

  it('switchboard servers reports the hanging, garbage and exiting servers with their reasons (exit 1)', { timeout: 60_000 }, async () => {
    const { memory, hang, garbage, exits } = await mixedServers();
    const config = await writeConfig({ memory, hang, garbage, exits });
    const servers = await runCliJson<Array<{ key: string; state: string; lastError: string | null }>>(['servers', '--json', '--config', config], path.join(path.dirname(config), 'data'), 1);
    const byKey = new Map(servers.map((s) => [s.key, s]));
    expect(byKey.get('memory')!.lastError).toBeNull();
    for (const key of ['hang', 'garbage', 'exits']) expect(byKey.get(key)).toMatchObject({ state: 'failed', lastError: expect.any(String) });
    expect(byKey.get('garbage')!.lastError).toMatch(/no answer to initialize within \d+ ms/);
    expect(byKey.get('exits')!.lastError).toMatch(/exited with code 3/);
  });

  it('stdio: the first listing is bounded too, a call to the left-out server waits for it, and it is announced', { timeout: 60_000 }, async () => {
    const { memory, hang, slow } = await mixedServers();
    const config = await writeConfig({ memory, hang, slow }, SETTINGS);
    const client = newClient();
    let listChanged = 0;
    client.setNotificationHandler('notifications/tools/list_changed', () => void listChanged++);
    const connected = await connectStdio(config, client);
    try {
      const started = performance.now();
      const first = await client.listTools();
      const ms = performance.now() - started;
      console.log(`stdio first tools/list with hang, slow and memory configured: ${ms.toFixed(0)} ms`);
      expect(ms).toBeLessThan(LIST_TIMEOUT_MS + SLACK_MS);
      expect(names(first).some((n) => n.startsWith('memory_'))).toBe(true);
      expect(names(first)).not.toContain('slow_ok');
      // A call to a tool of the server left out waits for it instead of failing as unknown.
      const callStarted = performance.now();
      const called = await client.callTool({ name: 'slow_ok', arguments: { text: 'early' } });
      expect(called.content).toEqual([{ type: 'text', text: 'ok: early' }]);
      console.log(`call to the left-out slow server answered after ${(performance.now() - callStarted).toFixed(0)} ms (it answers initialize after ${SLOW_START_MS} ms; the hung server is not waited for)`);
      await waitFor(() => listChanged > 0, 'tools/list_changed after the slow server came up', 30_000);
      await waitFor(async () => names(await client.listTools()).includes('slow_ok'), 'the slow server\'s tools after list_changed', 10_000);
    } finally {
      await connected.close();
    }
  });

  it('two HTTP clients: prompts, resources and a toolset naming a server left out of the first listing wait for it', { timeout: 90_000 }, async () => {
    const config = await writeConfig({ late: sleepingEverything(SLOW_START_MS / 1000) }, { listTimeoutMs: 1500, http: { unauthenticatedAdmin: true } });
    const gateway = await startHttpGateway(config);
    const [first, second] = [newClient(), newClient()];
    const connected = [await connectHttp(gateway.url, first), await connectHttp(gateway.url, second)];
    try {
      const listed = await first.listPrompts();
      expect(listed.prompts.map((p) => p.name)).not.toContain('late_completable-prompt');
      const started = performance.now();
      // Each of these used to fail at once as unknown; now each waits for the server to list.
      const [promptCompletion, prompt, read, templateCompletion, created] = await Promise.all([
        first.complete({ ref: { type: 'ref/prompt', name: 'late_completable-prompt' }, argument: { name: 'department', value: 'E' } }),
        first.getPrompt({ name: 'late_simple-prompt' }),
        second.readResource({ uri: 'demo://resource/dynamic/text/3' }),
        second.complete({ ref: { type: 'ref/resource', uri: 'demo://resource/dynamic/text/{resourceId}' }, argument: { name: 'resourceId', value: '1' } }),
        postToolset(gateway.url, 'early', [{ server: 'late', tool: 'echo' }]),
      ]);
      console.log(`prompt, resource and toolset requests for the left-out server answered after ${(performance.now() - started).toFixed(0)} ms (it starts after ${SLOW_START_MS} ms)`);
      expect(promptCompletion.completion.values).toContain('Engineering');
      expect(prompt.messages.length).toBeGreaterThan(0);
      expect(read.contents[0]!.uri).toBe('demo://resource/dynamic/text/3');
      expect(templateCompletion.completion.values.length).toBeGreaterThan(0);
      expect(created.status, await created.clone().text()).toBe(201);
      // Once it is listed, a tool it does not have is refused with close matches.
      const typo = await postToolset(gateway.url, 'early', [{ server: 'late', tool: 'echoo' }]);
      expect(typo.status).toBe(400);
      expect(((await typo.json()) as { error: string }).error).toMatch(/Server "late" has no tool "echoo"\. Did you mean: late\.echo/);
      // Once it is listed, a name nobody lists is still unknown, and answered at once.
      const unknown = await first.complete({ ref: { type: 'ref/prompt', name: 'late_no-such-prompt' }, argument: { name: 'x', value: '' } }).catch((e: unknown) => e);
      expect(String(unknown)).toMatch(/Unknown prompt: "late_no-such-prompt"/);
    } finally {
      for (const c of connected) await c.close();
      await gateway.close();
    }
  });

  it('meta mode, two HTTP clients: a search or browse filtered to a server left out of the first listing waits for it', { timeout: 90_000 }, async () => {
    const config = await writeConfig({ late: sleepingEverything(SLOW_START_MS / 1000) }, { listTimeoutMs: 1500 });
    const gateway = await startHttpGateway(config, ['--mode', 'meta']);
    const [first, second] = [newClient(), newClient()];
    const connected = [await connectHttp(gateway.url, first), await connectHttp(gateway.url, second)];
    type Structured = { structuredContent: Record<string, any> };
    const meta = (client: typeof first, name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args }).then((r) => (r as Structured).structuredContent);
    try {
      // Unfiltered, nothing waits: the server still starting shows with its status and no tools.
      const all = await meta(first, 'tool_capabilities', {});
      const before = all.servers.find((s: { server: string }) => s.server === 'late');
      expect(before.tools).toBe(0);
      expect(before.status).not.toBe('connected');
      const started = performance.now();
      const [browsed, found] = await Promise.all([
        meta(first, 'tool_capabilities', { server: 'late' }),
        meta(second, 'tool_discovery', { query: 'echo the message back', server: 'late', detailLevel: 'minimal' }),
      ]);
      console.log(`filtered meta calls for the left-out server answered after ${(performance.now() - started).toFixed(0)} ms (it starts after ${SLOW_START_MS} ms)`);
      expect(browsed.servers).toEqual([expect.objectContaining({ server: 'late', status: 'connected' })]);
      expect(browsed.servers[0].tools).toBeGreaterThan(5);
      expect(browsed.totalTools).toBe(browsed.servers[0].tools);
      expect(found.tools.map((t: { toolKey: string }) => t.toolKey)).toContain('late_echo');
      // A server that is not configured is still refused at once, with the ones that are.
      const unknown = await first.callTool({ name: 'tool_capabilities', arguments: { server: 'nope' } }).catch((e: unknown) => e);
      expect(String(unknown)).toMatch(/No server "nope"/);
    } finally {
      for (const c of connected) await c.close();
      await gateway.close();
    }
  });

  it('a saved toolset whose server has not listed yet says so, instead of calling its tool missing', { timeout: 60_000 }, async () => {
    const dir = await tempDir('switchboard-toolset-late-');
    const settings = { listTimeoutMs: 1500, http: { unauthenticatedAdmin: true } };
    type Listed = { toolsets: Array<{ name: string; missing: Array<{ server: string; tool: string; reason: string }> }> };
    const listed = async (url: string) => ((await (await fetch(`${url}/api/toolsets`)).json()) as Listed).toolsets.find((t) => t.name === 'daily')!;
    // First run: the server starts at once, and the toolset is saved with its tool checked.
    let gateway = await startHttpGateway(await writeConfig({ late: sleepingEverything(0) }, settings, dir));
    try {
      const created = await postToolset(gateway.url, 'daily', [{ server: 'late', tool: 'echo' }]);
      expect(created.status, await created.clone().text()).toBe(201);
      expect((await listed(gateway.url)).missing).toEqual([]);
    } finally {
      await gateway.close();
    }
    // Second run, same data dir: "late" is another command now (it sleeps first), so nothing is cached for it.
    gateway = await startHttpGateway(await writeConfig({ late: sleepingEverything(SLOW_START_MS / 1000) }, settings, dir));
    try {
      const { missing } = await listed(gateway.url);
      console.log(`toolset tool of a server not listed yet: ${missing[0]?.reason}`);
      expect(missing).toEqual([{ server: 'late', tool: 'echo', reason: expect.stringMatching(/^server "late" has not listed its tools yet/) }]);
    } finally {
      await gateway.close();
    }
  });

  it('a per-server endpoint of a server never seen and not up in time opens with default capabilities and a warning', { timeout: 60_000 }, async () => {
    const { hang } = await mixedServers();
    const config = await writeConfig({ hang }, { listTimeoutMs: 1000 });
    const gateway = await startHttpGateway(config);
    try {
      const sent = performance.now();
      const initialize = await post(`${gateway.url}/s/hang/mcp`, { id: 1, method: 'initialize', params: INITIALIZE_PARAMS });
      const ms = performance.now() - sent;
      console.log(`initialize on /s/hang/mcp (never seen, hanging): ${ms.toFixed(0)} ms`);
      expect(initialize.status).toBe(200);
      expect(ms).toBeLessThan(1000 + SLACK_MS);
      expect(initialize.body?.result?.capabilities).toHaveProperty('tools');
      await waitFor(() => gateway.log.records().some((r) => r.server === 'hang' && /default capabilities/.test(String(r.msg))), 'the warning about default capabilities');
    } finally {
      await gateway.close();
    }
  });
});
