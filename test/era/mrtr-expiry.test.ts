// The MRTR bridge's handles expire: a call whose client never retries is cancelled (its downstream
// request's signal aborts), its connection released, and its requestState continues nothing. Driven
// through the bridge itself with a short lifetime; the downstream is a stand-in promise that asks
// a question and waits for its answer or its cancellation. Where a lifetime must be seen NOT to
// run out, the bridge's timers are fake and advanced past it.
import { describe, expect, it, vi } from 'vitest';
import type { ServerContext } from '@modelcontextprotocol/server';
import { MrtrBridge } from '../../src/gateway/mrtr-bridge.js';
import { waitFor } from '../helpers/gateway.js';

/**
 * The parts of a handler context the bridge reads: method, envelope (client binding), signal,
 * inputResponses. `onResumed` is told when a retry's state has been verified: the bridge reads its
 * inputResponses then, and its round is waiting on the call before anything else runs.
 */
function contextFor(client: string, inputResponses?: Record<string, unknown>, signal = new AbortController().signal, onResumed?: () => void): ServerContext {
  const mcpReq = {
    id: 1,
    method: 'tools/call',
    envelope: { 'io.modelcontextprotocol/clientInfo': { name: client, version: '1' } },
    signal,
    get inputResponses() {
      onResumed?.();
      return inputResponses;
    },
  };
  return { mcpReq } as unknown as ServerContext;
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

  it('arms the lifetime only when no retry of the call waits: one cancelled retry does not expire the other', { timeout: 30_000 }, async () => {
    const ttlMs = 100;
    const bridge = new MrtrBridge({ ttlMs });
    let cancelled = false;
    let finish!: (text: string) => void;
    let answered!: () => void;
    const gotAnswer = new Promise<void>((resolve) => (answered = resolve));
    const first = await bridge.start(
      contextFor('client-a'),
      async (handle, signal) => {
        signal.addEventListener('abort', () => (cancelled = true));
        await bridge.ask(handle, { method: 'roots/list' }, new AbortController().signal);
        answered();
        return { content: [{ type: 'text', text: await new Promise<string>((resolve) => (finish = resolve)) }] };
      },
      () => undefined,
    );
    const [key] = Object.keys(first.inputRequests as object);
    const state = first.requestState as string;
    // Retry A answers the question and waits for the result; the same retry, sent again (B), waits too.
    const cancelA = new AbortController();
    const retryA = bridge.resume(contextFor('client-a', { [key!]: { roots: [] } }, cancelA.signal), state);
    await gotAnswer;
    const cancelB = new AbortController();
    let bWaits = false;
    const retryB = bridge.resume(contextFor('client-a', { [key!]: { roots: [] } }, cancelB.signal, () => (bWaits = true)), state);
    await waitFor(() => bWaits, 'the second retry to wait on the call');

    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      cancelA.abort();
      await expect(retryA).rejects.toMatchObject({ code: -32603 });
      vi.advanceTimersByTime(10 * ttlMs);
      expect(cancelled).toBe(false); // B still waits: no lifetime ran
      expect(bridge.size).toBe(1);
    } finally {
      vi.useRealTimers();
    }
    finish('done');
    expect((await retryB).content).toEqual([{ type: 'text', text: 'done' }]);
    expect(bridge.size).toBe(0);
    bridge.close();
  });

  it('arms the lifetime when the last waiting retry is cancelled', { timeout: 30_000 }, async () => {
    const ttlMs = 100;
    const bridge = new MrtrBridge({ ttlMs });
    let cancelled = false;
    const first = await bridge.start(
      contextFor('client-a'),
      async (handle, signal) => {
        signal.addEventListener('abort', () => (cancelled = true));
        await bridge.ask(handle, { method: 'roots/list' }, new AbortController().signal);
        return await new Promise<never>(() => undefined); // never answers: only the expiry ends it
      },
      () => undefined,
    );
    const [key] = Object.keys(first.inputRequests as object);
    const cancels = [new AbortController(), new AbortController()];
    let waitingRetries = 0;
    const retries = cancels.map((cancel) => bridge.resume(contextFor('client-a', { [key!]: { roots: [] } }, cancel.signal, () => void (waitingRetries += 1)), first.requestState as string));
    await waitFor(() => waitingRetries === 2, 'both retries to wait on the call');
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      for (const [i, cancel] of cancels.entries()) {
        cancel.abort();
        await expect(retries[i]).rejects.toMatchObject({ code: -32603 });
      }
      vi.advanceTimersByTime(10 * ttlMs);
      expect(cancelled).toBe(true);
      expect(bridge.size).toBe(0);
    } finally {
      vi.useRealTimers();
    }
    bridge.close();
  });
});
