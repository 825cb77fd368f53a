// Logged objects stay bounded and safe: the pure helpers (bound, serializeError, redactSecrets) and
// the real logger writing a real file: a 1 MB payload is cut with its size noted, a circular object
// does not throw, an error has no stack at info and has one at debug.
import { openSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bound, serializeError, DEFAULT_BOUNDS } from '../../src/logging/bound.js';
import { redactSecrets, isSecretKey } from '../../src/logging/redact.js';
import { createRootLogger } from '../../src/logging/logger.js';
import { waitFor, tempDir } from '../helpers/gateway.js';

describe('bound', () => {
  it('returns small objects as they are, cuts long strings with their length, wide and deep values, and cycles', () => {
    const small = { a: 1, b: 'two', c: [1, 2, 3], d: { e: null } };
    expect(bound(small)).toBe(small);
    const long = 'x'.repeat(5000);
    expect(bound({ text: long })).toEqual({ text: `${'x'.repeat(2000)}…[truncated: 5000 chars]` });
    expect(bound(Array.from({ length: 60 }, (_, i) => i))).toHaveLength(51);
    expect((bound(Array.from({ length: 60 }, (_, i) => i)) as unknown[]).at(-1)).toBe('…[10 more items]');
    const wide = Object.fromEntries(Array.from({ length: 55 }, (_, i) => [`k${i}`, i]));
    expect((bound(wide) as Record<string, unknown>)['…']).toBe('5 more keys');
    const deep = { a: { b: { c: { d: { e: { f: 1 } } } } } };
    expect(JSON.stringify(bound(deep))).toContain('[Object]');
    const cycle: Record<string, unknown> = { name: 'loop' };
    cycle.self = cycle;
    expect(bound(cycle)).toEqual({ name: 'loop', self: '[Circular]' });
    expect(bound({ data: Buffer.alloc(1024) })).toEqual({ data: '[binary: 1024 bytes]' });
  });

  it('serializes errors without a stack unless asked', () => {
    const error = Object.assign(new Error('boom'), { code: 'E_BOOM' });
    expect(serializeError(error)).toEqual({ type: 'Error', message: 'boom', code: 'E_BOOM' });
    expect(serializeError(error, { ...DEFAULT_BOUNDS, stacks: true }).stack).toContain('boom');
  });
});

describe('redactSecrets', () => {
  it('replaces values of secret-named keys at any depth and keeps the rest', () => {
    const args = { query: 'q', apiKey: 'k', nested: [{ password: 'p', Authorization: 'Bearer x', author: 'Ada', max_tokens: 5 }], client_secret: 's' };
    expect(redactSecrets(args)).toEqual({ query: 'q', apiKey: '[redacted]', nested: [{ password: '[redacted]', Authorization: '[redacted]', author: 'Ada', max_tokens: 5 }], client_secret: '[redacted]' });
    expect(isSecretKey('access_token')).toBe(true);
    expect(isSecretKey('path')).toBe(false);
  });
});

describe('the logger', () => {
  async function logTo(level: 'info' | 'debug', write: (log: ReturnType<typeof createRootLogger>) => void): Promise<Array<Record<string, unknown>>> {
    const file = path.join(await tempDir(), 'test.log');
    const log = createRootLogger({ level, pretty: false, fileFd: openSync(file, 'a'), stderr: false });
    write(log);
    return waitFor(() => {
      const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
      return lines.length >= 3 && lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    }, 'three log lines in the file');
  }

  it('bounds payloads, survives cycles, and leaves stacks to debug', async () => {
    const cycle: Record<string, unknown> = { id: 1 };
    cycle.again = cycle;
    const body = 'y'.repeat(1_000_000);
    const error = new Error('failed here');
    const info = await logTo('info', (log) => {
      log.info({ body }, 'big');
      log.info({ cycle }, 'cyclic');
      log.error({ err: error }, 'failed');
    });
    expect(String(info[0]!.body)).toHaveLength(2000 + '…[truncated: 1000000 chars]'.length);
    expect(info[1]!.cycle).toEqual({ id: 1, again: '[Circular]' });
    expect(info[2]!.err).toEqual({ type: 'Error', message: 'failed here' });
    const debug = await logTo('debug', (log) => {
      log.debug('one');
      log.debug('two');
      log.error({ err: error }, 'failed');
    });
    expect((debug[2]!.err as { stack?: string }).stack).toContain('failed here');
  });
});
