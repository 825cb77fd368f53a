// A 2026-07-28 request cancelled while the MRTR bridge gathers a server's questions gets no
// input_required: the questions stay unasked and the call stays at its round, so the client's retry
// with the requestState it holds still continues the call. The bridge itself
// (src/gateway/mrtr-bridge.ts), with the SDK's request context reduced to the fields it reads.
import { describe, expect, it } from 'vitest';
import type { ServerContext } from '@modelcontextprotocol/server';
import { MrtrBridge } from '../../src/gateway/mrtr-bridge.js';

type Result = Record<string, unknown>;

function contextWith(signal: AbortSignal, inputResponses?: Record<string, unknown>): ServerContext {
  return { mcpReq: { method: 'tools/call', signal, envelope: {}, ...(inputResponses && { inputResponses }) } } as unknown as ServerContext;
}

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('MRTR bridge: a request cancelled while questions are gathered', () => {
  it('answers with the cancel, not with an input_required nobody reads, and the held requestState still continues the call', async () => {
    const bridge = new MrtrBridge({ ttlMs: 60_000 });
    const server = new AbortController();
    let handle = '';
    let finish: (result: Result) => void = () => undefined;
    const first = bridge.start(contextWith(new AbortController().signal), (h) => {
      handle = h;
      return new Promise<Result>((resolve) => (finish = resolve));
    }, () => undefined);
    await tick(10);
    const name = bridge.ask(handle, { method: 'elicitation/create', params: { message: 'name?' } }, server.signal);
    const asked = (await first) as { resultType: string; inputRequests: Record<string, unknown>; requestState: string };
    expect(asked.resultType).toBe('input_required');
    const [nameKey] = Object.keys(asked.inputRequests);

    // The retry answers the first question; while the round gathers the server's next one, the client cancels it.
    const cancelled = new AbortController();
    const second = bridge.resume(contextWith(cancelled.signal, { [nameKey!]: { action: 'accept', content: { name: 'ada' } } }), asked.requestState);
    await expect(name).resolves.toMatchObject({ content: { name: 'ada' } });
    const age = bridge.ask(handle, { method: 'elicitation/create', params: { message: 'age?' } }, server.signal);
    await tick(5);
    cancelled.abort();
    await expect(second).rejects.toThrow(/cancelled/);

    // The client sends the same retry again: the call is still at the round its requestState names.
    const again = bridge.resume(contextWith(new AbortController().signal, {}), asked.requestState);
    const next = (await again) as { resultType: string; inputRequests: Record<string, { params: { message: string } }>; requestState: string };
    expect(next.resultType).toBe('input_required');
    expect(Object.values(next.inputRequests).map((q) => q.params.message)).toEqual(['age?']);
    const ageKey = Object.keys(next.inputRequests)[0]!;
    const last = bridge.resume(contextWith(new AbortController().signal, { [ageKey]: { action: 'accept', content: { age: 36 } } }), next.requestState);
    await expect(age).resolves.toMatchObject({ content: { age: 36 } });
    finish({ content: [{ type: 'text', text: 'done' }] });
    await expect(last).resolves.toMatchObject({ content: [{ text: 'done' }] });
    expect(bridge.size).toBe(0);
  });
});
