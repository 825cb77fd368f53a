// The MRTR bridge's handles expire: a call whose client never retries is cancelled (its downstream
// request's signal aborts), its connection released, and its requestState continues nothing. Driven
// through the bridge itself with a short lifetime; the downstream is a stand-in promise that asks
// a question and waits for its answer or its cancellation.
import { describe, expect, it } from 'vitest';
import type { ServerContext } from '@modelcontextprotocol/server';
import { MrtrBridge } from '../../src/gateway/mrtr-bridge.js';
import { waitFor } from '../helpers/gateway.js';

/** The parts of a handler context the bridge reads: method, envelope (client binding), signal, inputResponses. */
function contextFor(client: string, inputResponses?: Record<string, unknown>): ServerContext {
  return {
    mcpReq: {
      id: 1,
      method: 'tools/call',
      envelope: { 'io.modelcontextprotocol/clientInfo': { name: client, version: '1' } },
      signal: new AbortController().signal,
      ...(inputResponses && { inputResponses }),
    },
  } as unknown as ServerContext;
}

describe('MRTR bridge handles', () => {
  it('expire: the downstream call is cancelled, its connection released, and the state refused', { timeout: 30_000 }, async () => {
    const bridge = new MrtrBridge({ ttlMs: 300 });
    let cancelled = false;
    const released: string[] = [];
    const first = await bridge.start(
      contextFor('client-a'),
      (handle, signal) =>
        new Promise((resolve, reject) => {
          signal.addEventListener('abort', () => {
            cancelled = true;
            reject(new Error('cancelled'));
          });
          void bridge.ask(handle, { method: 'elicitation/create', params: { message: 'name?' } }, new AbortController().signal).then((answer) => resolve({ content: [{ type: 'text', text: JSON.stringify(answer) }] }), () => undefined);
        }),
      (handle) => released.push(handle),
    );
    expect(first.resultType).toBe('input_required');
    expect(Object.values(first.inputRequests as object)[0]).toEqual({ method: 'elicitation/create', params: { message: 'name?' } });
    await waitFor(() => cancelled && released.length === 1 && bridge.size === 0, 'the handle to expire and its call to be cancelled');
    await expect(bridge.resume(contextFor('client-a', { q1: { action: 'accept', content: {} } }), first.requestState as string)).rejects.toMatchObject({ code: -32602 });
    bridge.close();
  });

  it('never expires while the client\'s request waits: a downstream slower to ask than the lifetime still gets its question through', { timeout: 30_000 }, async () => {
    // Reproduced under load: a cold connection took longer to start than inputRequiredTtlMs, the
    // handle expired during the first request, and the client got "it was stopped" (-32010).
    const bridge = new MrtrBridge({ ttlMs: 200 });
    let cancelled = false;
    const first = await bridge.start(
      contextFor('client-a'),
      async (handle, signal) => {
        signal.addEventListener('abort', () => (cancelled = true));
        await new Promise((resolve) => setTimeout(resolve, 700)); // the start: over three lifetimes
        const answer = await bridge.ask(handle, { method: 'roots/list' }, new AbortController().signal);
        return { content: [{ type: 'text', text: JSON.stringify(answer) }] };
      },
      () => undefined,
    );
    expect(cancelled).toBe(false);
    expect(first.resultType).toBe('input_required');
    // From the input_required answer on, the lifetime runs: no retry, so it expires.
    await waitFor(() => cancelled && bridge.size === 0, 'the handle to expire once nobody waits on it');
    bridge.close();
  });

  it('answers the held question with the retry and returns the call\'s result; a retry of another client is refused', { timeout: 30_000 }, async () => {
    const bridge = new MrtrBridge({ ttlMs: 60_000 });
    const released: string[] = [];
    const first = await bridge.start(
      contextFor('client-a'),
      async (handle) => {
        const answer = await bridge.ask(handle, { method: 'roots/list' }, new AbortController().signal);
        return { content: [{ type: 'text', text: JSON.stringify(answer) }] };
      },
      (handle) => released.push(handle),
    );
    const [key] = Object.keys(first.inputRequests as object);
    const state = first.requestState as string;
    await expect(bridge.resume(contextFor('client-b', { [key!]: { roots: [] } }), state)).rejects.toMatchObject({ code: -32602 });
    const done = await bridge.resume(contextFor('client-a', { [key!]: { roots: [{ uri: 'file:///x' }] } }), state);
    expect(done.content).toEqual([{ type: 'text', text: JSON.stringify({ roots: [{ uri: 'file:///x' }] }) }]);
    expect(released).toHaveLength(1);
    expect(bridge.size).toBe(0);
    bridge.close();
  });

  it('a lane serves one call after another: a finished call\'s requestState never continues the next one', { timeout: 30_000 }, async () => {
    const bridge = new MrtrBridge({ ttlMs: 60_000 });
    const ended: Array<[string, boolean]> = [];
    const askRoots = async (handle: string) => {
      const answer = await bridge.ask(handle, { method: 'roots/list' }, new AbortController().signal);
      return { content: [{ type: 'text', text: JSON.stringify(answer) }] };
    };
    const onEnd = (handle: string, settled: boolean) => void ended.push([handle, settled]);
    const first = await bridge.start(contextFor('client-a'), askRoots, onEnd, 'lane-1');
    const [key] = Object.keys(first.inputRequests as object);
    await bridge.resume(contextFor('client-a', { [key!]: { roots: [] } }), first.requestState as string);
    expect(ended).toEqual([['lane-1', true]]);

    // The same lane, the next call, at the same round: the first call's state is refused.
    const second = await bridge.start(contextFor('client-a'), askRoots, onEnd, 'lane-1');
    expect(second.resultType).toBe('input_required');
    await expect(bridge.resume(contextFor('client-a', { [key!]: { roots: [] } }), first.requestState as string)).rejects.toMatchObject({ code: -32602 });
    const done = await bridge.resume(contextFor('client-a', { [key!]: { roots: [{ uri: 'file:///y' }] } }), second.requestState as string);
    expect(done.content).toEqual([{ type: 'text', text: JSON.stringify({ roots: [{ uri: 'file:///y' }] }) }]);
    bridge.close();
  });
});
