// A request id reused while its first request is in progress on the same HTTP session (which MCP
// forbids): the second is refused at once with -32600 and the first still gets its own answer. Before,
// the SDK's transport handed the first one's answer to the second POST and the first waited for ever
// (one request in 20,000 of the fuzz test, when a mutated frame repeated a neighbour's id).
// Ids are a session's own: two clients using the same id at once each get their answer.
// Real gateway, real server-everything, real HTTP on 127.0.0.1.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectHttp, newClient, npmServer, startHttpGateway, writeConfig } from '../helpers/gateway.js';

type Gateway = Awaited<ReturnType<typeof startHttpGateway>>;
interface Answer {
  id: unknown;
  result?: unknown;
  error?: { code: number; message: string };
}

/** A real client's session, driven by raw POSTs (ids of our choosing) on its session id. */
async function rawSession(gateway: Gateway) {
  const user = await connectHttp(gateway.url, newClient());
  await user.client.callTool({ name: 'everything_echo', arguments: { message: 'warm' } });
  const sessionId = (user.client.transport as unknown as { sessionId: string }).sessionId;
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' };
  return {
    post: (body: unknown, extra: Record<string, string> = {}) => fetch(`${gateway.url}/mcp`, { method: 'POST', headers: { ...headers, ...extra }, body: JSON.stringify(body) }),
    close: () => user.close(),
  };
}

/** The JSON-RPC message of a response (SSE or JSON). */
async function answer(response: Response): Promise<Answer> {
  const text = await response.text();
  return JSON.parse(/^data: (.*)$/m.exec(text)?.[1] ?? text) as Answer;
}

const longCall = (id: number, seconds: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'everything_trigger-long-running-operation', arguments: { duration: seconds, steps: seconds } } });

describe('request ids on an HTTP session', () => {
  let gateway: Gateway;
  beforeAll(async () => {
    gateway = await startHttpGateway(await writeConfig({ everything: npmServer('everything') }));
  }, 60_000);
  afterAll(async () => {
    await gateway?.close();
  });

  it('refuses an id already in use by a request in progress, answers the first, and frees the id when it is answered', async () => {
    const { post, close } = await rawSession(gateway);
    // The first request's response (an event stream) has begun: its id is in use until it ends.
    const first = await post(longCall(7, 2));
    const second = await post({ jsonrpc: '2.0', id: 7, method: 'ping' });
    expect(second.status).toBe(400);
    expect(await answer(second)).toMatchObject({ id: 7, error: { code: -32600, message: expect.stringContaining('id 7 is already in use by a request in progress') } });
    const firstAnswer = await answer(first);
    expect(firstAnswer.id).toBe(7);
    expect(JSON.stringify(firstAnswer.result)).toContain('Long running operation completed');
    // The same id twice in one batch is refused too.
    const batch = await post([{ jsonrpc: '2.0', id: 'b', method: 'ping' }, { jsonrpc: '2.0', id: 'b', method: 'ping' }]);
    expect((await answer(batch)).error?.code).toBe(-32600);
    // Answered, the id is free again.
    const again = await post({ jsonrpc: '2.0', id: 7, method: 'ping' });
    expect(again.status).toBe(200);
    expect(await answer(again)).toMatchObject({ id: 7, result: {} });
    await close();
  }, 60_000);

  it('frees the id of a request its client cancelled, and of one the transport refused before dispatching it', async () => {
    const { post, close } = await rawSession(gateway);
    // Cancelled: no answer will come for id 9, so the id is free once the cancel is in.
    const long = await post(longCall(9, 30));
    expect(long.status).toBe(200);
    expect((await post({ jsonrpc: '2.0', id: 9, method: 'ping' })).status).toBe(400);
    expect((await post({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 9, reason: 'user' } })).status).toBe(202);
    const reused = await post({ jsonrpc: '2.0', id: 9, method: 'ping' });
    expect(reused.status).toBe(200);
    expect(await answer(reused)).toMatchObject({ id: 9, result: {} });
    await long.body?.cancel();

    // Refused by the transport (an unsupported protocol version header): never dispatched, id free at once.
    const refused = await post({ jsonrpc: '2.0', id: 10, method: 'ping' }, { 'mcp-protocol-version': '1999-01-01' });
    expect(refused.status).toBe(400);
    const after = await post({ jsonrpc: '2.0', id: 10, method: 'ping' });
    expect(after.status).toBe(200);
    expect(await answer(after)).toMatchObject({ id: 10, result: {} });
    await close();
  }, 60_000);

  it('two clients using the same id at once each get their own answer; one cancelling frees nothing of the other', async () => {
    const [a, b] = await Promise.all([rawSession(gateway), rawSession(gateway)]);
    // Both have id 5 in progress at once: neither is refused.
    const aLong = await a.post(longCall(5, 30));
    const bShort = await b.post(longCall(5, 1));
    expect([aLong.status, bShort.status]).toEqual([200, 200]);
    // A's cancel of its id 5 does not free B's id 5 (B's call is still running)...
    expect((await a.post({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 5, reason: 'user' } })).status).toBe(202);
    expect((await b.post({ jsonrpc: '2.0', id: 5, method: 'ping' })).status).toBe(400);
    // ...and B gets the answer to its own call, not A's.
    const bAnswer = await answer(bShort);
    expect(bAnswer.id).toBe(5);
    expect(JSON.stringify(bAnswer.result)).toContain('Duration: 1 seconds');
    // A's id 5 is free on A's session.
    expect(await answer(await a.post({ jsonrpc: '2.0', id: 5, method: 'ping' }))).toMatchObject({ id: 5, result: {} });
    await aLong.body?.cancel();
    await Promise.all([a.close(), b.close()]);
  }, 60_000);
});
