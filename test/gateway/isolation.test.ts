// Isolation between clients: two real SDK clients at once through one real gateway (HTTP face)
// against the real npm servers. A server's sampling, elicitation and roots requests caused by one
// client never reach the other; log messages and log levels stay with the session that caused or set
// them; one session's equipped toolset never changes another's tools. Each case failed when clients
// with the same capabilities shared one downstream connection and reverse requests went to the most
// recently active session.
import { mkdir, realpath, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ClientCapabilities } from '@modelcontextprotocol/client';
import { connectHttp, fixtureServer, isAlive, newClient, npmServer, startHttpGateway, tempDir, waitFor, writeConfig, type ConnectedClient, type RunningGateway } from '../helpers/gateway.js';

const ANY = z.any();
type Client = ReturnType<typeof newClient>;

function text(result: { content?: Array<{ text?: string }> }): string {
  return (result.content ?? []).map((c) => c.text ?? '').join('\n');
}

// Every client that declares a reverse capability starts its own server processes: on a loaded
// 2-core machine that takes a while.
describe('isolation between two clients of one gateway', { timeout: 120_000 }, () => {
  let gateway: RunningGateway;
  let scratch: string;
  let secret: string;
  const open: ConnectedClient[] = [];

  beforeAll(async () => {
    scratch = await realpath(await tempDir('switchboard-scratch-'));
    secret = await realpath(await tempDir('switchboard-secret-'));
    await writeFile(path.join(scratch, 'hello.txt'), 'hello from the scratch folder\n');
    await writeFile(path.join(secret, 'secret.txt'), 'the private document of client A\n');
    const config = await writeConfig({ everything: npmServer('everything'), filesystem: npmServer('filesystem', [scratch]) });
    gateway = await startHttpGateway(config);
  });

  afterAll(async () => {
    await Promise.all(open.map((c) => c.close().catch(() => undefined)));
    await gateway?.close();
  });

  async function connect(capabilities: ClientCapabilities, setup?: (client: Client) => void): Promise<Client> {
    const client = newClient(capabilities);
    setup?.(client);
    const connected = await connectHttp(gateway.url, client);
    open.push(connected);
    return connected.client;
  }

  const call = (client: Client, name: string, args: Record<string, unknown> = {}) => client.request({ method: 'tools/call', params: { name, arguments: args } }, ANY);

  /**
   * Keeps `client` busy and recently active on the same servers while `body` runs: a long call in
   * flight on server-everything and pings in a loop (the conditions under which a server's request
   * used to go to the wrong client).
   */
  async function whileBusy<T>(client: Client, body: () => Promise<T>): Promise<T> {
    const long = call(client, 'everything_trigger-long-running-operation', { duration: 3, steps: 3 });
    let pinging = true;
    const pinger = (async () => {
      while (pinging) {
        await client.ping();
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
    })();
    try {
      return await body();
    } finally {
      pinging = false;
      await pinger;
      await long;
    }
  }

  it('sampling: a server request caused by A goes to A only, and A gets its own answer', async () => {
    const asked = { a: [] as string[], b: [] as string[] };
    const answer = (who: 'a' | 'b') => (c: Client) =>
      c.setRequestHandler('sampling/createMessage', async (request) => {
        asked[who].push(JSON.stringify(request.params));
        return { model: `model-${who}`, role: 'assistant', content: { type: 'text', text: `answer from ${who}` } };
      });
    const a = await connect({ sampling: {} }, answer('a'));
    const b = await connect({ sampling: {} }, answer('b'));
    const results = await whileBusy(b, async () => {
      const own = call(b, 'everything_trigger-sampling-request', { prompt: 'B private note' });
      const mine: unknown[] = [];
      for (let i = 0; i < 3; i++) mine.push(await call(a, 'everything_trigger-sampling-request', { prompt: `A private document ${i}` }));
      return { mine, own: await own };
    });
    expect(asked.a).toHaveLength(3);
    for (const params of asked.a) expect(params).toContain('A private document');
    expect(asked.b).toHaveLength(1);
    expect(asked.b[0]).toContain('B private note');
    for (const result of results.mine) expect(JSON.stringify(result)).toContain('answer from a');
    expect(JSON.stringify(results.own)).toContain('answer from b');
  });

  it('elicitation: a server request caused by A goes to A only; B cannot approve it', async () => {
    const asked = { a: 0, b: 0 };
    const a = await connect({ elicitation: { form: {} } }, (c) =>
      c.setRequestHandler('elicitation/create', async () => {
        asked.a++;
        return { action: 'accept', content: { name: 'Ada', check: true } };
      }),
    );
    const b = await connect({ elicitation: { form: {} } }, (c) =>
      c.setRequestHandler('elicitation/create', async () => {
        asked.b++;
        return { action: 'accept', content: { name: 'Bob', check: true } };
      }),
    );
    const results = await whileBusy(b, async () => {
      const mine: unknown[] = [];
      for (let i = 0; i < 3; i++) mine.push(await call(a, 'everything_trigger-elicitation-request'));
      return mine;
    });
    expect(asked).toEqual({ a: 3, b: 0 });
    for (const result of results) {
      expect(JSON.stringify(result)).toContain('Ada');
      expect(JSON.stringify(result)).not.toContain('Bob');
    }
  });

  it('roots: each client\'s roots reach only its own servers (server-everything and server-filesystem)', async () => {
    const rootsOf = (dir: string) => (c: Client) => c.setRequestHandler('roots/list', async () => ({ roots: [{ uri: pathToFileURL(dir).href, name: path.basename(dir) }] }));
    const a = await connect({ roots: { listChanged: true } }, rootsOf(secret));
    const b = await connect({ roots: { listChanged: true } }, rootsOf(scratch));

    const rootsA = text(await call(a, 'everything_get-roots-list'));
    const rootsB = text(await call(b, 'everything_get-roots-list'));
    expect(rootsA).toContain(pathToFileURL(secret).href);
    expect(rootsA).not.toContain(pathToFileURL(scratch).href);
    expect(rootsB).toContain(pathToFileURL(scratch).href);
    expect(rootsB).not.toContain(pathToFileURL(secret).href);

    // server-filesystem replaces its allowed directories with the client's roots once it has them.
    const allowed = (client: Client) => call(client, 'filesystem_list_allowed_directories').then(text);
    await waitFor(async () => (await allowed(a)).includes(secret), 'server-filesystem to allow the roots of A');
    await waitFor(async () => (await allowed(b)).includes(scratch), 'server-filesystem to allow the roots of B');
    expect(await allowed(a)).not.toContain(scratch);
    expect(await allowed(b)).not.toContain(secret);
    const stolen = await call(b, 'filesystem_read_text_file', { path: path.join(secret, 'secret.txt') }).catch((error: Error) => ({ isError: true, content: [{ text: error.message }] }));
    expect(stolen.isError).toBe(true);
    expect(JSON.stringify(stolen)).not.toContain('private document of client A');
    expect(text(await call(a, 'filesystem_read_text_file', { path: path.join(secret, 'secret.txt') }))).toContain('private document of client A');
  });

  it('logs: messages caused by A on its connection never reach B, even when B asked for every level', async () => {
    type Message = { level: string; data?: unknown };
    const heard = { a: [] as Message[], b: [] as Message[] };
    const listen = (who: 'a' | 'b') => (c: Client) => {
      c.setRequestHandler('sampling/createMessage', async () => ({ model: 'm', role: 'assistant', content: { type: 'text', text: 'x' } }));
      c.setNotificationHandler('notifications/message', (n) => void heard[who].push(n.params as Message));
    };
    const a = await connect({ sampling: {} }, listen('a'));
    const b = await connect({ sampling: {} }, listen('b'));
    await b.request({ method: 'logging/setLevel', params: { level: 'debug' } }, ANY);
    await a.request({ method: 'logging/setLevel', params: { level: 'debug' } }, ANY);
    await call(b, 'everything_echo', { message: 'b is using server-everything too' });
    await call(a, 'everything_toggle-simulated-logging');
    try {
      // One message at once, then one every 5 s: wait for two.
      await waitFor(() => heard.a.filter((m) => /level.message/i.test(String(m.data))).length >= 2, 'two simulated log messages at A', 20_000);
    } finally {
      await call(a, 'everything_toggle-simulated-logging');
    }
    expect(heard.b.filter((m) => /level.message/i.test(String(m.data)))).toEqual([]);
  });

  it('log level: on a shared connection each session hears only what its own logging/setLevel asked for; one that never asked hears nothing', async () => {
    type Message = { level: string; data?: unknown };
    const heard = { c: [] as Message[], d: [] as Message[], e: [] as Message[] };
    const listen = (who: 'c' | 'd' | 'e') => (client: Client) => client.setNotificationHandler('notifications/message', (n) => void heard[who].push(n.params as Message));
    // No reverse capability: all three share server-everything's connection.
    const c = await connect({}, listen('c'));
    const d = await connect({}, listen('d'));
    const e = await connect({}, listen('e'));
    await call(e, 'everything_echo', { message: 'e uses server-everything too, and never sets a log level' });
    await c.request({ method: 'logging/setLevel', params: { level: 'debug' } }, ANY);
    await call(c, 'everything_toggle-simulated-logging');
    try {
      await d.request({ method: 'logging/setLevel', params: { level: 'emergency' } }, ANY);
      const after = heard.c.length;
      // The server logs one random level every 5 s: C (debug) keeps hearing levels below emergency.
      await waitFor(() => heard.c.slice(after).some((m) => m.level !== 'emergency'), 'a non-emergency log message at C after D set emergency', 30_000);
    } finally {
      await call(c, 'everything_toggle-simulated-logging');
    }
    expect(heard.d.filter((m) => m.level !== 'emergency')).toEqual([]);
    expect(heard.e).toEqual([]);
  });
});

describe('toolsets are per session', () => {
  let gateway: RunningGateway;
  const open: ConnectedClient[] = [];

  beforeAll(async () => {
    const dir = await tempDir();
    await mkdir(dir, { recursive: true });
    gateway = await startHttpGateway(await writeConfig({ everything: npmServer('everything') }, { mode: 'toolset' }, dir));
  });

  afterAll(async () => {
    await Promise.all(open.map((c) => c.close().catch(() => undefined)));
    await gateway?.close();
  });

  async function connect(): Promise<{ client: Client; changed: () => number }> {
    let changed = 0;
    const client = newClient();
    client.setNotificationHandler('notifications/tools/list_changed', () => void changed++);
    open.push(await connectHttp(gateway.url, client));
    return { client, changed: () => changed };
  }

  const names = async (client: Client) => ((await client.request({ method: 'tools/list', params: {} }, ANY)).tools as Array<{ name: string }>).map((t) => t.name);
  const call = (client: Client, name: string, args: Record<string, unknown> = {}) => client.request({ method: 'tools/call', params: { name, arguments: args } }, ANY);

  it('equip-toolset in A changes A\'s tools only; saved toolsets are shared', async () => {
    const a = await connect();
    const b = await connect();
    const before = await names(b.client);
    expect(before).not.toContain('everything_echo');
    expect((await call(a.client, 'build-toolset', { name: 'dev', tools: [{ namespacedName: 'everything.echo' }] })).isError).not.toBe(true);
    expect((await call(a.client, 'equip-toolset', { name: 'dev' })).isError).not.toBe(true);
    await waitFor(() => a.changed() >= 1, 'list_changed at A after its equip');
    expect(await names(a.client)).toContain('everything_echo');

    // B: same tools, no list_changed, nothing equipped; it can still see and equip the saved toolset itself.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(b.changed()).toBe(0);
    expect(await names(b.client)).toEqual(before);
    expect((await call(b.client, 'get-active-toolset')).structuredContent).toEqual({ active: null });
    const refused = await call(b.client, 'everything_echo', { message: 'not mine' }).catch((error: Error) => error);
    expect((refused as Error).message).toContain('not in the equipped toolset');
    const listed = (await call(b.client, 'list-toolsets')).structuredContent as { toolsets: Array<{ name: string; equipped: boolean }> };
    expect(listed.toolsets).toEqual([expect.objectContaining({ name: 'dev', equipped: false })]);

    // A new session starts with the gateway's default (none), not with A's choice.
    const c = await connect();
    expect(await names(c.client)).toEqual(before);

    // B unequipping changes nothing for A.
    await call(b.client, 'unequip-toolset');
    expect(await names(a.client)).toContain('everything_echo');
  });
});

describe('per-session connections: lazy, released when idle, refused reverse requests on shared ones', () => {
  let gateway: RunningGateway;
  const open: ConnectedClient[] = [];

  beforeAll(async () => {
    gateway = await startHttpGateway(await writeConfig({ raw: fixtureServer('raw-server.ts', [], { RAW_TOOLS: JSON.stringify([{ name: 'ask_client', description: 'Sends the client a request of its own.', inputSchema: { type: 'object' } }]) }) }, { isolatedIdleMs: 1500, sessionIdleMs: 10 * 60 * 1000 }));
  });

  afterAll(async () => {
    await Promise.all(open.map((c) => c.close().catch(() => undefined)));
    await gateway?.close();
  });

  async function connect(capabilities: ClientCapabilities): Promise<Client> {
    const client = newClient(capabilities);
    if (capabilities.sampling) client.setRequestHandler('sampling/createMessage', async () => ({ model: 'm', role: 'assistant', content: { type: 'text', text: 'sampled by its own client' } }));
    open.push(await connectHttp(gateway.url, client));
    return client;
  }

  type Connections = Array<{ profile: string; pid: number | null; state: string }>;
  async function connections(): Promise<Connections> {
    const body = (await (await fetch(`${gateway.url}/api/servers`)).json()) as { servers: Array<{ key: string; connections: Connections }> };
    return body.servers.find((s) => s.key === 'raw')!.connections;
  }
  const call = (client: Client, name: string, args: Record<string, unknown> = {}) => client.request({ method: 'tools/call', params: { name, arguments: args } }, ANY);
  const owned = (list: Connections) => list.filter((c) => c.profile.includes('@'));

  it('a server request on a shared connection is answered with an error, never passed to a client', async () => {
    await connect({});
    const b = await connect({});
    const result = JSON.parse(text(await call(b, 'raw_ask_client', { method: 'sampling/createMessage', params: { messages: [], maxTokens: 1 } }))) as { error?: { code: number; message: string }; response?: unknown };
    expect(result.response).toBeUndefined();
    expect(result.error?.code).toBe(-32601);
    expect(result.error?.message).toContain('shared');
    expect(owned(await connections())).toEqual([]);
  });

  it('a sampling client gets its own connection on first use, stopped after isolatedIdleMs and started again on the next call', async () => {
    const shared = (await connections()).filter((c) => !c.profile.includes('@') && c.pid !== null);
    const a = await connect({ sampling: {} });
    const answer = JSON.parse(text(await call(a, 'raw_ask_client', { method: 'sampling/createMessage', params: { messages: [], maxTokens: 1 } }))) as { response?: unknown };
    expect(JSON.stringify(answer.response)).toContain('sampled by its own client');
    const [mine] = owned(await connections());
    expect(mine?.pid).toBeGreaterThan(0);
    await waitFor(() => !isAlive(mine!.pid!), 'the idle session\'s own server process to stop', 15_000);
    await waitFor(async () => owned(await connections()).length === 0, 'the idle connection to be released');
    // Logged once every released connection has stopped, which may be a moment after its process exited.
    await waitFor(() => gateway.log.records().some((r) => r.msg === 'session idle; its own connections stopped until it is used again'), 'the idle release to be logged');
    // The session lives on: the next call starts its own connection again.
    const again = JSON.parse(text(await call(a, 'raw_ask_client', { method: 'sampling/createMessage', params: { messages: [], maxTokens: 1 } }))) as { response?: unknown };
    expect(JSON.stringify(again.response)).toContain('sampled by its own client');
    expect(owned(await connections())[0]?.pid).not.toBe(mine!.pid);
    // The shared connection is not released for idleness.
    // The shared connection (its two clients are still open) is not released for idleness.
    expect(shared).toHaveLength(1);
    expect((await connections()).filter((c) => !c.profile.includes('@') && c.pid !== null)).toHaveLength(1);
    expect(gateway.log.records().some((r) => r.msg === 'shared connections no session uses stopped')).toBe(false);
  });
});
