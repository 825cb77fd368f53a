// Request logging and correlation through the real gateway (HTTP face, meta mode, server-everything)
// with two real clients at once: --log-requests lines carry their fields and never argument values;
// a tool_discovery and the tool_execute that follows share a correlationId (per session: another
// client's execute does not join it), which the stored call row served by /api/calls carries too;
// a call, its progress and the sampling request it causes share one; --log-arguments redacts secrets.
import path from 'node:path';
import { newestRunLogLines } from './log-lines.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { connectHttp, fixtureServer, newClient, npmServer, startHttpGateway, waitFor, writeConfig, type ConnectedClient, type RunningGateway } from '../helpers/gateway.js';

const ANY = z.any();
const SECRET = 'hunter2-do-not-log';
type Line = Record<string, unknown>;

describe('--log-requests in meta mode, two clients', () => {
  let gateway: RunningGateway;
  let dataDir: string;
  const open: ConnectedClient[] = [];

  beforeAll(async () => {
    const config = await writeConfig({ everything: npmServer('everything') });
    dataDir = path.join(path.dirname(config), 'data');
    gateway = await startHttpGateway(config, ['--mode', 'meta', '--log-requests']);
  });

  afterAll(async () => {
    await Promise.all(open.map((c) => c.close().catch(() => undefined)));
    await gateway?.close();
  });

  async function connect(setup?: (client: ReturnType<typeof newClient>) => void, capabilities = {}): Promise<ConnectedClient> {
    const client = newClient(capabilities);
    setup?.(client);
    const connected = await connectHttp(gateway.url, client);
    open.push(connected);
    return connected;
  }

  const call = (c: ConnectedClient, name: string, args: Record<string, unknown>) => c.client.request({ method: 'tools/call', params: { name, arguments: args } }, ANY);

  it('writes one line per request and response with the fields, shares a correlationId from discovery to execute, never logs argument values', async () => {
    const a = await connect();
    const b = await connect();
    const [, foundB] = await Promise.all([call(a, 'tool_discovery', { query: 'echo a message back' }), call(b, 'tool_discovery', { query: 'add two numbers', maxResults: 1 })]);
    expect(JSON.stringify(foundB)).not.toContain('everything_echo');
    // A executes a toolKey its own discovery showed; B executes one only A's discovery showed.
    const [resultA, resultB] = await Promise.all([
      call(a, 'tool_execute', { toolKey: 'everything_echo', arguments: { message: `${SECRET} from A` } }),
      call(b, 'tool_execute', { toolKey: 'everything_echo', arguments: { message: `${SECRET} from B` } }),
    ]);
    expect(JSON.stringify(resultA)).toContain(`${SECRET} from A`);
    expect(JSON.stringify(resultB)).toContain(`${SECRET} from B`);

    const lines = await waitFor(async () => {
      const all = await newestRunLogLines(dataDir);
      return all.filter((l) => l.module === 'requests' && l.event === 'request').length >= 4 && all;
    }, 'the request log lines in the file');
    const requests = lines.filter((l) => l.module === 'requests');
    const discoveries = requests.filter((l) => l.tool === 'tool_discovery');
    const executes = requests.filter((l) => l.tool === 'everything_echo');
    expect(discoveries.map((l) => l.event)).toEqual(['request', 'request']);
    expect(executes.map((l) => l.event)).toEqual(['request', 'request']);

    for (const line of [...discoveries, ...executes]) {
      expect(line).toMatchObject({ level: 30, method: 'tools/call', correlationId: expect.stringMatching(/^[0-9a-f]{6}-[0-9a-z]+$/), session: expect.any(String) });
      expect(['string', 'number']).toContain(typeof line.requestId);
    }
    for (const line of executes) {
      expect(line).toMatchObject({ server: 'everything', status: 'ok', durationMs: expect.any(Number), resultBytes: expect.any(Number), argumentBytes: expect.any(Number) });
      expect(line.resultBytes as number).toBeGreaterThan(SECRET.length);
      expect(line.argumentBytes as number).toBeGreaterThan(SECRET.length);
      expect(line).not.toHaveProperty('args');
    }
    for (const line of discoveries) expect(line).toMatchObject({ server: 'switchboard', status: 'ok', durationMs: expect.any(Number), resultBytes: expect.any(Number) });
    // Argument values appear nowhere: not in the file, not on stderr.
    expect(JSON.stringify(lines)).not.toContain(SECRET);
    expect(gateway.log.text()).not.toContain(SECRET);

    // Correlation: A's discovery and A's execute share an id; B's execute did not join A's discovery.
    const sessionOf = (l: Line) => l.session as string;
    const discoveryA = discoveries.find((l) => executes.some((e) => sessionOf(e) === sessionOf(l)))!;
    const executeA = executes.find((l) => sessionOf(l) === sessionOf(discoveryA))!;
    const executeB = executes.find((l) => sessionOf(l) !== sessionOf(discoveryA))!;
    const discoveryB = discoveries.find((l) => sessionOf(l) === sessionOf(executeB))!;
    expect(executeA.correlationId).toBe(discoveryA.correlationId);
    expect(executeB.correlationId).not.toBe(discoveryA.correlationId);
    expect(executeB.correlationId).not.toBe(discoveryB.correlationId); // B's discovery did not show everything_echo
    // The stored call row carries the same id (GET /api/calls).
    const byId = (await (await fetch(`${gateway.url}/api/calls?correlationId=${executeA.correlationId}`)).json()) as { calls: Line[] };
    expect(byId.calls).toHaveLength(1);
    expect(byId.calls[0]).toMatchObject({ server: 'everything', tool: 'echo', outcome: 'ok', correlationId: executeA.correlationId, session: sessionOf(executeA) });
    const recent = (await (await fetch(`${gateway.url}/api/calls?limit=10`)).json()) as { calls: Line[] };
    expect(recent.calls.map((c) => c.correlationId).sort()).toEqual([executeA.correlationId, executeB.correlationId].sort());
  });

  it('a call, its progress and the sampling request it causes share one correlationId', async () => {
    const c = await connect((client) => client.setRequestHandler('sampling/createMessage', async () => ({ model: 'stand-in', role: 'assistant', content: { type: 'text', text: 'sampled' } })), { sampling: {} });
    await call(c, 'tool_discovery', { query: 'sampling request' });
    await c.client.request({ method: 'tools/call', params: { name: 'tool_execute', arguments: { toolKey: 'everything_trigger-sampling-request', arguments: { prompt: 'hello' } } } }, ANY);
    await c.client.request(
      { method: 'tools/call', params: { name: 'tool_execute', arguments: { toolKey: 'everything_trigger-long-running-operation', arguments: { duration: 0.4, steps: 2 } }, _meta: { progressToken: 'p-1' } } },
      ANY,
      { onprogress: () => undefined },
    );
    const lines = await waitFor(async () => {
      const all = await newestRunLogLines(dataDir);
      const done = all.filter((l) => l.module === 'requests' && l.event === 'request' && l.tool === 'everything_trigger-long-running-operation');
      return done.length === 1 && all;
    }, 'the long operation to be logged');
    const sampling = lines.find((l) => l.module === 'requests' && l.tool === 'everything_trigger-sampling-request' && l.event === 'request')!;
    const reverse = lines.filter((l) => l.event === 'server-request' && l.method === 'sampling/createMessage');
    expect(reverse).toHaveLength(1);
    expect(reverse[0]!.correlationId).toBe(sampling.correlationId);
    const long = lines.filter((l) => l.module === 'requests' && l.tool === 'everything_trigger-long-running-operation');
    const progress = long.filter((l) => l.event === 'progress');
    expect(progress.length).toBeGreaterThanOrEqual(1);
    expect(new Set(long.map((l) => l.correlationId)).size).toBe(1);
    expect(long[0]!.correlationId).not.toBe(sampling.correlationId);
  });
});

describe('fallback retry', () => {
  it('a failed call and its automatic retry on the fallback share a correlationId in their stored rows', async () => {
    const config = await writeConfig({ fault: fixtureServer('fault-server.ts'), spare: fixtureServer('fault-server.ts') }, { autoRetryFallback: true });
    const gateway = await startHttpGateway(config);
    try {
      const user = await connectHttp(gateway.url);
      const result = await user.client.request({ method: 'tools/call', params: { name: 'fault_tool_error', arguments: {} } }, ANY);
      expect(result.structuredContent.auto_retry).toMatchObject({ failed: 'fault_tool_error', retried_with: 'spare_tool_error' });
      await user.client.request({ method: 'tools/call', params: { name: 'fault_tool_error', arguments: {} } }, ANY);
      await user.close();
      const { calls } = (await (await fetch(`${gateway.url}/api/calls`)).json()) as { calls: Line[] };
      expect(calls).toHaveLength(4);
      // Newest first: the second call's pair (the retry picks the best suggestion of the moment), then the first call's pair.
      expect(calls[3]).toMatchObject({ server: 'fault', tool: 'tool_error' });
      expect(calls[2]).toMatchObject({ server: 'spare', tool: 'tool_error' });
      expect(calls[1]).toMatchObject({ server: 'fault', tool: 'tool_error' });
      expect(`${calls[0]!.server}/${calls[0]!.tool}`).not.toBe('fault/tool_error');
      expect(calls[0]!.correlationId).toBe(calls[1]!.correlationId);
      expect(calls[2]!.correlationId).toBe(calls[3]!.correlationId);
      expect(calls[0]!.correlationId).not.toBe(calls[2]!.correlationId);
    } finally {
      await gateway.close();
    }
  });
});

describe('--log-arguments', () => {
  it('logs argument values with secret-named keys redacted', async () => {
    const config = await writeConfig({ everything: npmServer('everything') });
    const dataDir = path.join(path.dirname(config), 'data');
    const gateway = await startHttpGateway(config, ['--log-requests', '--log-arguments']);
    try {
      const connected = await connectHttp(gateway.url);
      await connected.client.request({ method: 'tools/call', params: { name: 'everything_echo', arguments: { message: 'visible text', apiKey: SECRET, nested: { password: SECRET } } } }, ANY);
      await connected.close();
      const line = await waitFor(async () => (await newestRunLogLines(dataDir)).find((l) => l.event === 'request' && l.tool === 'everything_echo'), 'the request line');
      expect(line.args).toEqual({ message: 'visible text', apiKey: '[redacted]', nested: { password: '[redacted]' } });
      expect(JSON.stringify(await newestRunLogLines(dataDir))).not.toContain(SECRET);
    } finally {
      await gateway.close();
    }
  });
});
