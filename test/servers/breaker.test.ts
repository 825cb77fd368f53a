// The circuit breaker's states with real calls (src/servers/breaker.ts): server faults in a row open
// it, the server's own errors neither count nor break a run of faults' reset, an open circuit fails
// fast with a retry hint, one probe goes through after halfOpenAfterMs (others wait for it), and the
// probe's outcome closes or reopens the circuit.
import { describe, expect, it } from 'vitest';
import { ProtocolError } from '@modelcontextprotocol/client';
import pino from 'pino';
import { ServerBreaker } from '../../src/servers/breaker.js';
import { serverUnavailable } from '../../src/servers/errors.js';

const log = pino({ level: 'silent' });
const context = () => ({ lastError: 'it crashed' });
const fault = () => Promise.reject(serverUnavailable('s', 'it crashed'));
const ownError = () => Promise.reject(new ProtocolError(-32602, 'bad arguments'));
const ok = () => Promise.resolve('ok');

function breaker(halfOpenAfterMs = 60_000) {
  const changes: boolean[] = [];
  const b: ServerBreaker = new ServerBreaker('s', { failureThreshold: 3, halfOpenAfterMs }, log, () => changes.push(b.open));
  return { b, changes };
}

describe('ServerBreaker', () => {
  it('opens after three server faults in a row and then fails fast with a retry hint', async () => {
    const { b, changes } = breaker();
    for (let i = 0; i < 3; i++) await expect(b.execute(fault, context)).rejects.toThrow(/it crashed/);
    expect(b.open).toBe(true);
    expect(changes).toEqual([true]);
    let called = false;
    const refused = await b.execute(async () => (called = true), context).catch((error: ProtocolError) => error);
    expect(called).toBe(false);
    expect((refused as ProtocolError).data).toMatchObject({ state: 'circuit-open' });
    expect((refused as ProtocolError).message).toMatch(/3 requests in a row failed \(last: it crashed\)/);
  });

  it('counts only faults in a row: a success resets the run, the server\'s own errors do not count', async () => {
    const { b } = breaker();
    await b.execute(fault, context).catch(() => undefined);
    await b.execute(fault, context).catch(() => undefined);
    await b.execute(ok, context);
    await b.execute(fault, context).catch(() => undefined);
    await expect(b.execute(ownError, context)).rejects.toThrow('bad arguments');
    await b.execute(fault, context).catch(() => undefined);
    expect(b.open).toBe(false);
    await b.execute(fault, context).catch(() => undefined);
    expect(b.open).toBe(true);
  });

  it('lets one probe through after halfOpenAfterMs: success closes it, and calls made meanwhile wait for the probe', async () => {
    const { b, changes } = breaker(1);
    for (let i = 0; i < 3; i++) await b.execute(fault, context).catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 5));
    let release!: (value: string) => void;
    const probe = b.execute(() => new Promise<string>((resolve) => (release = resolve)), context);
    const waiting = b.execute(ok, context);
    release('probed');
    expect(await probe).toBe('probed');
    expect(await waiting).toBe('ok');
    expect(b.open).toBe(false);
    expect(changes).toEqual([true, false]);
  });

  it('reopens when the probe is a server fault, and closes when the server answers with its own error', async () => {
    const { b, changes } = breaker(1);
    for (let i = 0; i < 3; i++) await b.execute(fault, context).catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await expect(b.execute(fault, context)).rejects.toThrow(/it crashed/);
    expect(b.open).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await expect(b.execute(ownError, context)).rejects.toThrow('bad arguments');
    expect(b.open).toBe(false);
    expect(changes).toEqual([true, true, false]);
  });
});

describe('ServerBreaker before its first fault', () => {
  it('counts the faults of calls that went out before the first fault came back, so they open it', async () => {
    const { b, changes } = breaker();
    const releases: Array<() => void> = [];
    const slowFault = () => new Promise<never>((_, reject) => releases.push(() => reject(serverUnavailable('s', 'it crashed'))));
    const calls = [0, 1, 2].map(() => b.execute(slowFault, context).catch((error: Error) => error));
    expect(releases).toHaveLength(3); // all three went out at once, none waited for a policy
    for (const release of releases) release();
    for (const outcome of await Promise.all(calls)) expect((outcome as Error).message).toMatch(/it crashed/);
    expect(b.open).toBe(true);
    expect(changes).toEqual([true]);
  });

  it('passes results and the server\'s own errors through untouched, and they open nothing', async () => {
    const { b } = breaker();
    expect(await b.execute(ok, context)).toBe('ok');
    for (let i = 0; i < 4; i++) await expect(b.execute(ownError, context)).rejects.toThrow('bad arguments');
    expect(b.open).toBe(false);
    await b.execute(fault, context).catch(() => undefined);
    await b.execute(fault, context).catch(() => undefined);
    expect(b.open).toBe(false);
    await expect(b.execute(fault, context)).rejects.toThrow(/it crashed/);
    expect(b.open).toBe(true);
  });
});
