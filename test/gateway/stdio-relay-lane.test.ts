// The stdio face's relay lane for tools/call (src/gateway/stdio-fast-calls.ts) and a 2025-era
// server's relay lane downstream (src/servers/raw-requests.ts), spoken to on the wire: a call the
// lanes carry is answered exactly as the SDK path answers the same call (results, the server's own
// errors, the gateway's errors with their data), whatever the id's type and however lines arrive; a
// client's cancel reaches the server under the gateway's id and the call gets no answer; a server
// that dies mid-call fails the call at once. Real gateway CLI, real fixture server, real pipes.
import { afterEach, describe, expect, it } from 'vitest';
import { fixtureServer, waitFor, writeConfig } from '../helpers/gateway.js';
import { INITIALIZE_PARAMS, rawStdio, type RawStdioClient, type WireMessage } from '../helpers/wire.js';

const SETTINGS = { resilience: { retry: { maxAttempts: 1, initialDelayMs: 50, maxDelayMs: 100 }, shutdownGraceMs: 300 } };
/** `_meta` with a key other than a progress token: the stdio face hands such a call to the SDK path. */
const SDK_PATH = { _meta: { 'example.com/trace': 'x' } };

let gateway: RawStdioClient | undefined;
afterEach(async () => {
  await gateway?.close();
  gateway = undefined;
});

async function started(): Promise<RawStdioClient> {
  const config = await writeConfig({ bad: fixtureServer('fault-server.ts') }, SETTINGS);
  const client = rawStdio(config);
  client.send({ id: 'init', method: 'initialize', params: INITIALIZE_PARAMS });
  await client.answer('init');
  client.send({ method: 'notifications/initialized' });
  return client;
}

/** An answer without its arrival time and id: what must be the same on both paths. */
const body = (m: WireMessage) => ({ result: m.result, error: m.error });

describe('stdio relay lane', () => {
  it('answers every call as the SDK path does: results, server errors and gateway errors, any id type', async () => {
    gateway = await started();
    const calls: Array<[string, Record<string, unknown>]> = [
      ['bad_ok', { text: 'hello' }],
      ['bad_crash_not_a_tool', {}], // unknown tool: the gateway's -32602 with close matches in data
      ['bad_fail', {}], // the server's own JSON-RPC error, kept as it came
      ['bad_tool_error', {}], // an isError result
    ];
    let n = 0;
    for (const [name, args] of calls) {
      const lane = `lane-${++n}`;
      const sdk = 1000 + n;
      gateway.send({ id: lane, method: 'tools/call', params: { name, arguments: args } });
      gateway.send({ id: sdk, method: 'tools/call', params: { name, arguments: args, ...SDK_PATH } });
      const [fast, slow] = [await gateway.answer(lane), await gateway.answer(sdk)];
      expect(body(fast)).toEqual(body(slow));
    }
    expect((await gateway.answer('lane-1')).result).toMatchObject({ content: [{ type: 'text', text: 'ok: hello' }] });
    expect((await gateway.answer('lane-2')).error).toMatchObject({ code: -32602, message: expect.stringContaining('Unknown tool') });
    expect((await gateway.answer('lane-3')).error?.code).toEqual(expect.any(Number));
    expect((await gateway.answer('lane-4')).result).toMatchObject({ isError: true });
    // A numeric id, a progress token (the lane keeps it), CRLF line ends, and two requests in one write.
    gateway.send({ id: 7, method: 'tools/call', params: { name: 'bad_ok', arguments: { text: 'seven' }, _meta: { progressToken: 'p7' } } });
    const two = [
      JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'bad_ok', arguments: { text: 'eight' } } }),
      JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'bad_ok', arguments: { text: 'nine' } } }),
    ];
    gateway.child.stdin!.write(`${two[0]}\r\n${two[1]}\r\n`);
    expect((await gateway.answer(7)).result).toMatchObject({ content: [{ text: 'ok: seven' }] });
    expect((await gateway.answer(8)).result).toMatchObject({ content: [{ text: 'ok: eight' }] });
    expect((await gateway.answer(9)).result).toMatchObject({ content: [{ text: 'ok: nine' }] });
    // An id the SDK refuses (not an integer) gets the SDK path's refusal on both paths, never a result.
    gateway.send({ id: 1.5, method: 'tools/call', params: { name: 'bad_ok', arguments: { text: 'half' } } });
    const refusedByLane = await gateway.answer(1.5);
    gateway.send({ id: 1.5, method: 'tools/call', params: { name: 'bad_ok', arguments: { text: 'half' }, ...SDK_PATH } });
    await waitFor(() => gateway!.messages.filter((m) => m.id === 1.5).length === 2 || undefined, 'the second answer to id 1.5');
    const refusedBySdk = gateway.messages.filter((m) => m.id === 1.5)[1]!;
    expect(refusedByLane.result).toBeUndefined();
    expect(body(refusedByLane)).toEqual(body(refusedBySdk));
  });

  it('a client cancel reaches the server and the call gets no answer; the next call is answered', async () => {
    gateway = await started();
    const hung = () => (gateway!.stderr().match(/hang: request (\d+) will never be answered/g) ?? []).length;
    gateway.send({ id: 'h1', method: 'tools/call', params: { name: 'bad_hang', arguments: {} } });
    await waitFor(() => hung() === 1, 'the server to receive the call');
    const downstreamId = /hang: request (\d+) will never be answered/.exec(gateway.stderr())![1]!;
    expect(Number(downstreamId)).toBeGreaterThanOrEqual(2 ** 40); // the downstream relay lane's ids
    gateway.send({ method: 'notifications/cancelled', params: { requestId: 'h1', reason: 'the user pressed Esc' } });
    await waitFor(() => gateway!.stderr().includes(`cancelled ${downstreamId}`), 'the server to receive notifications/cancelled for its own id');
    gateway.send({ id: 'after', method: 'tools/call', params: { name: 'bad_ok', arguments: { text: 'after' } } });
    expect((await gateway.answer('after')).result).toMatchObject({ content: [{ text: 'ok: after' }] });
    expect(gateway.messages.some((m) => m.id === 'h1')).toBe(false);

    // With a progress token the call goes through the sender's progress path, which follows the same cancel.
    gateway.send({ id: 'h2', method: 'tools/call', params: { name: 'bad_hang', arguments: {}, _meta: { progressToken: 'p-h2' } } });
    await waitFor(() => hung() === 2, 'the server to receive the call with a progress token');
    const withProgress = [...gateway.stderr().matchAll(/hang: request (\d+) will never be answered/g)][1]![1]!;
    gateway.send({ method: 'notifications/cancelled', params: { requestId: 'h2', reason: 'the user pressed Esc again' } });
    await waitFor(() => gateway!.stderr().includes(`cancelled ${withProgress}`), 'the server to receive notifications/cancelled for the call with a progress token');
    gateway.send({ id: 'after-2', method: 'tools/call', params: { name: 'bad_ok', arguments: { text: 'after 2' } } });
    expect((await gateway.answer('after-2')).result).toMatchObject({ content: [{ text: 'ok: after 2' }] });
    expect(gateway.messages.some((m) => m.id === 'h2')).toBe(false);
  });

  it('a server that dies during a call fails that call at once with a clear error', async () => {
    gateway = await started();
    gateway.send({ id: 'c1', method: 'tools/call', params: { name: 'bad_crash', arguments: {} } });
    const answer = await gateway.answer('c1');
    expect(answer.error?.code).toBe(-32010);
    expect(answer.error?.message).toContain('"bad"');
  });
});
