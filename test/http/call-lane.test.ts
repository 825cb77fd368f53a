// The HTTP face's relay lane for tools/call (src/http/call-lane.ts), spoken to with raw POSTs: a call
// the lane takes is answered exactly as the SDK path answers the same call (results, the server's own
// errors, the gateway's errors with their data), as one JSON body when it is answered at once and on
// an event stream when it is not, which also carries the call's progress before its answer; a client's cancel ends the call's stream with no answer, reaches the
// server and frees the id; a session ended with DELETE ends its running calls' streams; headers the
// SDK transport refuses still get its refusal; two clients with the same id at once each get their own
// answer. Real gateway CLI, real fixture server, real HTTP on 127.0.0.1.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureServer, startHttpGateway, waitFor, writeConfig, type RunningGateway } from '../helpers/gateway.js';
import { INITIALIZE_PARAMS } from '../helpers/wire.js';

interface Message {
  id?: unknown;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
}

const SETTINGS = { resilience: { retry: { maxAttempts: 1, initialDelayMs: 50, maxDelayMs: 100 }, shutdownGraceMs: 300 } };
/** `_meta` with a key other than a progress token: the face hands such a call to the SDK path. */
const SDK_PATH = { 'example.com/trace': 'x' };
const ACCEPT = 'application/json, text/event-stream';

/** The JSON-RPC messages of a response body: the events of a stream, or one JSON body. */
function messagesOf(text: string): Message[] {
  if (!text.startsWith('event:') && !text.startsWith(':') && !text.startsWith('data:')) return text ? [JSON.parse(text) as Message] : [];
  return text
    .split('\n\n')
    .map((event) => /^data: (.*)$/m.exec(event)?.[1])
    .filter((data): data is string => data !== undefined && data !== '')
    .map((data) => JSON.parse(data) as Message);
}

/** A raw 2025-era session on the gateway: initialize and initialized by hand, then POSTs of our choosing. */
async function rawSession(url: string) {
  const init = await fetch(`${url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: ACCEPT },
    body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: INITIALIZE_PARAMS }),
  });
  const sessionId = init.headers.get('mcp-session-id')!;
  expect(sessionId).toBeTruthy();
  await init.text();
  const headers = { 'content-type': 'application/json', accept: ACCEPT, 'mcp-session-id': sessionId, 'mcp-protocol-version': INITIALIZE_PARAMS.protocolVersion };
  const post = (body: unknown, extra: Record<string, string> = {}) => fetch(`${url}/mcp`, { method: 'POST', headers: { ...headers, ...extra }, body: JSON.stringify(body) });
  expect((await post({ jsonrpc: '2.0', method: 'notifications/initialized' })).status).toBe(202);
  const call = (id: string | number, name: string, args: Record<string, unknown> = {}, meta?: Record<string, unknown>) =>
    post({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, ...(meta && { _meta: meta }) } });
  return {
    sessionId,
    post,
    call,
    end: () => fetch(`${url}/mcp`, { method: 'DELETE', headers }),
  };
}

/** What must be the same on both paths: the answer without its id. */
const answerOf = (messages: Message[]) => {
  const last = messages.at(-1)!;
  return { result: last.result, error: last.error };
};

describe('HTTP relay lane for tools/call', () => {
  let gateway: RunningGateway;
  beforeAll(async () => {
    gateway = await startHttpGateway(await writeConfig({ bad: fixtureServer('fault-server.ts') }, SETTINGS));
  }, 60_000);
  afterAll(async () => {
    await gateway?.close();
  });

  it('answers every call as the SDK path does: results, server errors and gateway errors, any id type', async () => {
    const session = await rawSession(gateway.url);
    const calls: Array<[string, Record<string, unknown>]> = [
      ['bad_ok', { text: 'hello' }],
      ['bad_not_a_tool', {}], // unknown tool: the gateway's -32602 with close matches in data
      ['bad_fail', {}], // the server's own JSON-RPC error, kept as it came
      ['bad_tool_error', {}], // an isError result
    ];
    let n = 0;
    for (const [name, args] of calls) {
      n += 1;
      const lane = await session.call(`lane-${n}`, name, args);
      expect(lane.status).toBe(200);
      // One JSON body when answered before its stream had to begin (20 ms; the first call also starts
      // the server), else an event stream: the protocol lets a server answer a POST either way.
      expect(['application/json', 'text/event-stream']).toContain(lane.headers.get('content-type'));
      expect(lane.headers.get('mcp-session-id')).toBe(session.sessionId);
      const laneMessages = messagesOf(await lane.text());
      expect(laneMessages).toHaveLength(1);
      expect(laneMessages[0]!.id).toBe(`lane-${n}`);
      const sdk = messagesOf(await (await session.call(1000 + n, name, args, SDK_PATH)).text());
      expect(sdk.at(-1)!.id).toBe(1000 + n);
      expect(answerOf(laneMessages)).toEqual(answerOf(sdk));
      // A batch of one is the SDK's too.
      const batch = messagesOf(await (await session.post([{ jsonrpc: '2.0', id: 2000 + n, method: 'tools/call', params: { name, arguments: args } }])).text());
      expect(answerOf(laneMessages)).toEqual(answerOf(batch));
    }
    const [ok, unknown, failed, toolError] = await Promise.all(
      calls.map(async ([name, args], i) => messagesOf(await (await session.call(i, name, args)).text())[0]!),
    );
    expect(ok!.result).toMatchObject({ content: [{ type: 'text', text: 'ok: hello' }] });
    expect(unknown!.error).toMatchObject({ code: -32602, message: expect.stringContaining('Unknown tool') });
    expect(failed!.error?.code).toEqual(expect.any(Number));
    expect(toolError!.result).toMatchObject({ isError: true });
    await session.end();
  }, 60_000);

  it('answers a call that is answered at once with one JSON body, in one write', async () => {
    const session = await rawSession(gateway.url);
    await (await session.call('warm', 'bad_ok', { text: 'warm' })).text(); // the server is up
    const kinds: string[] = [];
    // Up to 100 calls, until one came back as JSON: on a loaded machine some may take over 20 ms.
    for (let n = 0; n < 100 && !kinds.includes('application/json'); n += 1) {
      const response = await session.call(`quick-${n}`, 'bad_ok', { text: `q${n}` });
      const type = response.headers.get('content-type')!;
      kinds.push(type);
      const text = await response.text();
      if (type !== 'application/json') continue;
      expect(Number(response.headers.get('content-length'))).toBe(Buffer.byteLength(text));
      expect(response.headers.get('mcp-session-id')).toBe(session.sessionId);
      expect(JSON.parse(text)).toMatchObject({ jsonrpc: '2.0', id: `quick-${n}`, result: { content: [{ type: 'text', text: `ok: q${n}` }] } });
    }
    expect(kinds).toContain('application/json');
    expect(kinds.every((kind) => kind === 'application/json' || kind === 'text/event-stream')).toBe(true);
    await session.end();
  }, 60_000);

  it("carries the call's progress on its own stream, before its answer", async () => {
    const session = await rawSession(gateway.url);
    const response = await session.call(7, 'bad_slow', { ms: 600 }, { progressToken: 'p7' });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const messages = messagesOf(await response.text());
    const progress = messages.filter((m) => m.method === 'notifications/progress');
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.every((m) => m.params?.progressToken === 'p7')).toBe(true);
    expect(messages.at(-1)).toMatchObject({ id: 7, result: { content: [{ text: 'slow: answered after 600 ms' }] } });
    await session.end();
  }, 60_000);

  it("a client's cancel ends the call's stream with no answer, reaches the server and frees the id", async () => {
    const session = await rawSession(gateway.url);
    const before = (gateway.log.text().match(/hang: request \d+ will never be answered/g) ?? []).length;
    const hung = await session.call('h1', 'bad_hang');
    expect(hung.status).toBe(200); // the stream begins while the call waits
    const downstreamId = await waitFor(() => [...gateway.log.text().matchAll(/hang: request (\d+) will never be answered/g)][before]?.[1], 'the server to receive the call');
    expect((await session.post({ jsonrpc: '2.0', id: 'h1', method: 'ping' })).status).toBe(400); // in use
    expect((await session.post({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'h1', reason: 'user' } })).status).toBe(202);
    expect(messagesOf(await hung.text())).toEqual([]); // ended, with no answer
    await waitFor(() => gateway.log.text().includes(`cancelled ${downstreamId}`), 'the server to receive notifications/cancelled for its own id');
    expect(messagesOf(await (await session.post({ jsonrpc: '2.0', id: 'h1', method: 'ping' })).text())).toMatchObject([{ id: 'h1', result: {} }]);
    await session.end();
  }, 60_000);

  it('a session ended with DELETE ends the streams of its running calls', async () => {
    const session = await rawSession(gateway.url);
    const hung = await session.call('h2', 'bad_hang');
    expect(hung.status).toBe(200);
    expect((await session.end()).status).toBe(200);
    expect(messagesOf(await hung.text())).toEqual([]);
    expect((await session.call('after', 'bad_ok')).status).toBe(404); // the session is gone
  }, 60_000);

  it("headers the SDK transport refuses still get its refusal", async () => {
    const session = await rawSession(gateway.url);
    const version = await session.call(1, 'bad_ok', {}, undefined);
    expect(version.status).toBe(200);
    await version.text();
    const unsupported = await session.post({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'bad_ok', arguments: {} } }, { 'mcp-protocol-version': '1999-01-01' });
    expect(unsupported.status).toBe(400);
    expect(await unsupported.text()).toContain('Unsupported protocol version: 1999-01-01');
    const jsonOnly = await session.post({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'bad_ok', arguments: {} } }, { accept: 'application/json' });
    expect(jsonOnly.status).toBe(406);
    await jsonOnly.text();
    await session.end();
  }, 60_000);

  it("one client's cancel ends only its own call, though the other client's call has the same id", async () => {
    const [a, b] = await Promise.all([rawSession(gateway.url), rawSession(gateway.url)]);
    const before = (gateway.log.text().match(/hang: request \d+ will never be answered/g) ?? []).length;
    const fromA = await a.call(7, 'bad_hang');
    const downstreamA = await waitFor(() => [...gateway.log.text().matchAll(/hang: request (\d+) will never be answered/g)][before]?.[1], "the server to receive A's call");
    const fromB = await b.call(7, 'bad_slow', { ms: 600 });
    expect((await a.post({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 7, reason: 'A gave up' } })).status).toBe(202);
    expect(messagesOf(await fromA.text())).toEqual([]); // A's call ended with no answer
    await waitFor(() => gateway.log.text().includes(`cancelled ${downstreamA}`), "the server to receive the cancel of A's call");
    // B's call with the same id was not cancelled: it is answered in full.
    expect(messagesOf(await fromB.text())).toMatchObject([{ id: 7, result: { content: [{ text: 'slow: answered after 600 ms' }] } }]);
    expect(gateway.log.text().match(/cancelled \d+/g)?.filter((line) => line === `cancelled ${downstreamA}`)).toHaveLength(1);
    await Promise.all([a.end(), b.end()]);
  }, 60_000);

  it('an id the SDK refuses (not an integer) gets the SDK path\'s refusal, not a lane answer', async () => {
    const session = await rawSession(gateway.url);
    const viaLane = await session.call(1.5, 'bad_ok', { text: 'x' });
    const viaSdk = await session.call(1.5, 'bad_ok', { text: 'x' }, SDK_PATH);
    const [laneText, sdkText] = [await viaLane.text(), await viaSdk.text()];
    expect(viaLane.status).toBe(viaSdk.status);
    expect(laneText).toBe(sdkText);
    expect(laneText).not.toContain('ok: x');
    await session.end();
  }, 60_000);

  it('two clients with the same id at once each get their own answer', async () => {
    const [a, b] = await Promise.all([rawSession(gateway.url), rawSession(gateway.url)]);
    const [fromA, fromB] = await Promise.all([a.call(1, 'bad_slow', { ms: 300 }), b.call(1, 'bad_ok', { text: 'b' })]);
    const [answerA, answerB] = await Promise.all([fromA.text(), fromB.text()]);
    expect(messagesOf(answerA)).toMatchObject([{ id: 1, result: { content: [{ text: 'slow: answered after 300 ms' }] } }]);
    expect(messagesOf(answerB)).toMatchObject([{ id: 1, result: { content: [{ text: 'ok: b' }] } }]);
    await Promise.all([a.end(), b.end()]);
  }, 60_000);
});
