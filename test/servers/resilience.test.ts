// Each fault of the fault-injecting fixture, through a real gateway and a real client: the gateway
// stays up, other servers keep answering, the client gets a clear error in bounded time, the faulty
// server recovers when the fault stops, and no process of the gateway survives its shutdown.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ProtocolError } from '@modelcontextprotocol/client';
import { connectStdio, descendants, fixtureServer, isAlive, tempDir, waitFor, writeConfig, type ConnectedClient } from '../helpers/gateway.js';

const ANY = z.any();

/** Fast resilience settings, so faults resolve in test time. */
const FAST = {
  requestTimeoutMs: 1500,
  resilience: {
    connectTimeoutMs: 5000,
    retry: { maxAttempts: 5, initialDelayMs: 100, maxDelayMs: 400 },
    breaker: { failureThreshold: 3, halfOpenAfterMs: 1500 },
    healthCheck: { intervalMs: 300, timeoutMs: 200, failuresBeforeRestart: 2 },
    shutdownGraceMs: 300,
  },
};

const fault = (...args: string[]) => fixtureServer('fault-server.ts', args);

async function gatewayWith(bad: ReturnType<typeof fault> & { requestTimeoutMs?: number }, extra: Record<string, unknown> = {}): Promise<ConnectedClient> {
  const config = await writeConfig({ good: fault(), bad, ...extra }, FAST);
  return connectStdio(config);
}

async function call(client: ConnectedClient['client'], name: string, args: Record<string, unknown> = {}, options = {}) {
  return client.request({ method: 'tools/call', params: { name, arguments: args } }, ANY, options);
}

async function callError(client: ConnectedClient['client'], name: string, args: Record<string, unknown> = {}): Promise<ProtocolError> {
  const error = await call(client, name, args).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProtocolError);
  return error as ProtocolError;
}

/** Shuts the gateway down (stdin closes) and checks that none of its processes survive. */
async function shutdownLeavesNothing(connected: ConnectedClient): Promise<void> {
  const tree = await descendants(connected.pid!);
  await connected.close();
  await waitFor(() => !isAlive(connected.pid!) && tree.every((pid) => !isAlive(pid)), 'the gateway and all its children to exit', 15_000);
}

async function expectGoodAnswers(client: ConnectedClient['client']): Promise<void> {
  expect((await call(client, 'good_ok', { text: 'fine' })).content[0].text).toBe('ok: fine');
}

describe('resilience against faulty servers', () => {
  it('a server that exits at start: the others work and the gateway stays up', async () => {
    const connected = await gatewayWith(fault('--exit-at-start'));
    const { tools } = await connected.client.request({ method: 'tools/list', params: {} }, ANY);
    expect(tools.some((t: { name: string }) => t.name.startsWith('bad_'))).toBe(false);
    await expectGoodAnswers(connected.client);
    expect(connected.log!.text()).toContain('--exit-at-start: exiting with code 3');
    await shutdownLeavesNothing(connected);
  });

  it('a server that crashes on a call: a clear error, then it is restarted for the next call', async () => {
    const connected = await gatewayWith(fault());
    const { client } = connected;
    const pidBefore = (await call(client, 'bad_pid')).content[0].text;
    const started = Date.now();
    const error = await callError(client, 'bad_crash');
    expect(Date.now() - started).toBeLessThan(5000);
    expect(error.code).toBe(-32010);
    expect(error.message).toContain('"bad"');
    expect((error.data as { server: string }).server).toBe('bad');
    await expectGoodAnswers(client);
    const pidAfter = await waitFor(async () => {
      const result = await call(client, 'bad_pid').catch(() => undefined);
      return result?.content[0].text;
    }, 'the crashed server to come back');
    expect(pidAfter).not.toBe(pidBefore);
    await shutdownLeavesNothing(connected);
  });

  it('a call that hangs times out with a clear error and is cancelled downstream', async () => {
    const connected = await gatewayWith(fault());
    const started = Date.now();
    const error = await callError(connected.client, 'bad_hang');
    expect(Date.now() - started).toBeLessThan(6000);
    expect(error.code).toBe(-32011);
    expect(error.message).toMatch(/did not answer tools\/call within 1500 ms/);
    await waitFor(() => /cancelled \d+/.test(connected.log!.text()), 'the server to receive notifications/cancelled');
    expect((await call(connected.client, 'bad_ok', { text: 'after' })).content[0].text).toBe('ok: after');
    await expectGoodAnswers(connected.client);
    await shutdownLeavesNothing(connected);
  });

  it('a slow call that reports progress outlives the timeout; one that does not, times out', async () => {
    const connected = await gatewayWith(fault());
    const progress: number[] = [];
    const slow = await call(connected.client, 'bad_slow', { ms: 2500 }, { onprogress: (p: { progress: number }) => progress.push(p.progress) });
    expect(slow.content[0].text).toBe('slow: answered after 2500 ms');
    expect(progress.length).toBeGreaterThan(5);
    const error = await callError(connected.client, 'bad_slow', { ms: 2500 });
    expect(error.code).toBe(-32011);
    await shutdownLeavesNothing(connected);
  });

  it('garbage on stdout does not break the session', async () => {
    const connected = await gatewayWith(fault('--garbage-at-start'));
    expect((await call(connected.client, 'bad_garbage')).content[0].text).toBeTruthy();
    expect((await call(connected.client, 'bad_ok', { text: 'still' })).content[0].text).toBe('ok: still');
    await expectGoodAnswers(connected.client);
    await shutdownLeavesNothing(connected);
  });

  it('a 10 MB result arrives intact', async () => {
    // The server's own requestTimeoutMs overrides the gateway's 1500 ms: 10 MB can take longer on a busy machine.
    const connected = await gatewayWith({ ...fault(), requestTimeoutMs: 30_000 });
    const bytes = 10_000_000;
    const result = await call(connected.client, 'bad_big', { bytes });
    const text: string = result.content[0].text;
    expect(text.length).toBe(bytes);
    expect(text.slice(0, 12)).toBe('012345678901');
    expect(text[bytes - 1]).toBe(String((bytes - 1) % 10));
    await expectGoodAnswers(connected.client);
    await shutdownLeavesNothing(connected);
  });

  it("a server's own requestTimeoutMs overrides the gateway's for its calls", async () => {
    const connected = await gatewayWith({ ...fault(), requestTimeoutMs: 400 });
    const error = await callError(connected.client, 'bad_hang');
    expect(error.code).toBe(-32011);
    expect(error.message).toMatch(/did not answer tools\/call within 400 ms/);
    await shutdownLeavesNothing(connected);
  });

  it('an invalid tool schema skips that tool only', async () => {
    const connected = await gatewayWith(fault('--invalid-schema'));
    const names = (await connected.client.request({ method: 'tools/list', params: {} }, ANY)).tools.map((t: { name: string }) => t.name);
    expect(names).toContain('bad_ok');
    expect(names).not.toContain('bad_bad_schema');
    await shutdownLeavesNothing(connected);
  });

  it('a flapping server recovers by itself and its tools appear', async () => {
    const state = path.join(await tempDir(), 'flap-state');
    const connected = await gatewayWith(fault('--flap', state));
    let changed = 0;
    connected.client.setNotificationHandler('notifications/tools/list_changed', () => void changed++);
    const first = (await connected.client.request({ method: 'tools/list', params: {} }, ANY)).tools.map((t: { name: string }) => t.name);
    expect(first.some((n: string) => n.startsWith('bad_'))).toBe(false);
    await waitFor(async () => (await call(connected.client, 'bad_ok', { text: 'up' }).catch(() => undefined))?.content[0].text === 'ok: up', 'the flapping server to come up', 15_000);
    await waitFor(() => changed > 0, 'list_changed once its tools are known', 15_000);
    await shutdownLeavesNothing(connected);
  });

  it('a server that ignores SIGTERM and stdin is killed at shutdown', async () => {
    const connected = await gatewayWith(fault('--ignore-sigterm', '--ignore-stdin-close'));
    expect((await call(connected.client, 'bad_ok', { text: 'x' })).content[0].text).toBe('ok: x');
    await shutdownLeavesNothing(connected);
  });

  it('a hung server (no answer to health checks) is restarted', async () => {
    const connected = await gatewayWith(fault());
    const pidBefore = (await call(connected.client, 'bad_pid')).content[0].text;
    await call(connected.client, 'bad_stop_answering_pings');
    await waitFor(() => connected.log!.records().some((r) => r.msg === 'restarting the server' && r.server === 'bad'), 'the health monitor to restart the server', 15_000);
    const pidAfter = await waitFor(async () => (await call(connected.client, 'bad_pid').catch(() => undefined))?.content[0].text, 'the restarted server');
    expect(pidAfter).not.toBe(pidBefore);
    await expectGoodAnswers(connected.client);
    await shutdownLeavesNothing(connected);
  });

  it('repeated restarts do not grow file descriptors or processes', { timeout: 120_000 }, async () => {
    const connected = await gatewayWith(fault());
    const { readdirSync } = await import('node:fs');
    const fds = () => readdirSync(`/proc/${connected.pid}/fd`).length;
    const cycle = async () => {
      await callError(connected.client, 'bad_crash');
      await waitFor(async () => (await call(connected.client, 'bad_ok', { text: 'up' }).catch(() => undefined))?.content[0].text === 'ok: up', 'the restart');
    };
    for (let i = 0; i < 3; i++) await cycle();
    const baseline = fds();
    for (let i = 0; i < 15; i++) await cycle();
    expect(fds()).toBeLessThanOrEqual(baseline + 2);
    expect((await descendants(connected.pid!)).length).toBeLessThanOrEqual(2); // good + bad
    await shutdownLeavesNothing(connected);
  });

  it('calls the client cancels are not the server\'s fault: they are cancelled downstream and the circuit stays closed', async () => {
    const connected = await gatewayWith(fault());
    expect((await call(connected.client, 'bad_ok', { text: 'up' })).content[0].text).toBe('ok: up');
    // More cancels than the breaker's threshold (3), on the plain path and on the path that follows progress.
    const received = () => (connected.log!.text().match(/hang: request \S+ will never be answered/g) ?? []).length;
    for (const onprogress of [undefined, undefined, () => undefined, () => undefined]) {
      const controller = new AbortController();
      const before = received();
      const pending = call(connected.client, 'bad_hang', {}, { signal: controller.signal, ...(onprogress && { onprogress }) }).then(() => 'answered', () => 'cancelled');
      // Cancel once the server has the call (a cancel before it was forwarded never reaches the server).
      await waitFor(() => received() > before, 'the server to receive the call');
      controller.abort('the user pressed Esc');
      expect(await pending).toBe('cancelled');
    }
    await waitFor(() => (connected.log!.text().match(/cancelled \d+/g) ?? []).length >= 4, 'the server to receive every notifications/cancelled');
    const started = Date.now();
    expect((await call(connected.client, 'bad_ok', { text: 'still closed' })).content[0].text).toBe('ok: still closed');
    expect(Date.now() - started).toBeLessThan(1500);
    await shutdownLeavesNothing(connected);
  });

  it('opens the circuit after repeated failures, fails fast with a retry hint, and closes after a good probe', async () => {
    const connected = await gatewayWith(fault());
    // Three timeouts in a row are three server faults: the circuit opens. (A crash that is
    // restarted does not count the same way: the re-listing after the restart is a success.)
    for (let i = 0; i < 3; i++) expect((await callError(connected.client, 'bad_hang')).code).toBe(-32011);
    const started = Date.now();
    const error = await callError(connected.client, 'bad_ok');
    expect(Date.now() - started).toBeLessThan(500);
    expect(error.code).toBe(-32010);
    expect((error.data as { state: string }).state).toBe('circuit-open');
    expect((error.data as { retryAfterMs: number }).retryAfterMs).toBeGreaterThan(0);
    expect(error.message).toMatch(/Retry after \d+ s/);
    await expectGoodAnswers(connected.client);
    // After halfOpenAfterMs one probe goes through; it succeeds and the circuit closes.
    await new Promise((r) => setTimeout(r, (error.data as { retryAfterMs: number }).retryAfterMs + 100));
    expect((await call(connected.client, 'bad_ok', { text: 'probe' })).content[0].text).toBe('ok: probe');
    expect((await call(connected.client, 'bad_ok', { text: 'closed' })).content[0].text).toBe('ok: closed');
    await shutdownLeavesNothing(connected);
  });
});
