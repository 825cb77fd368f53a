// A lane call's cancel without an AbortController (src/servers/call-cancel.ts): listeners run once
// on abort, removed ones never, ones added after it never (as on an AbortSignal); the real signal it
// makes on demand follows the cancel, whether made before or after it; abortSignalOf passes an
// AbortSignal through.
import { describe, expect, it } from 'vitest';
import { CallCancel, abortSignalOf } from '../../src/servers/call-cancel.js';

describe('CallCancel', () => {
  it('calls each listener once on abort, never a removed one or one added after', () => {
    const cancel = new CallCancel();
    const calls: string[] = [];
    const a = () => calls.push('a');
    const b = () => calls.push('b');
    cancel.addEventListener('abort', a, { once: true });
    cancel.addEventListener('abort', b);
    cancel.removeEventListener('abort', b);
    expect(cancel.aborted).toBe(false);
    cancel.abort('client cancelled');
    cancel.abort('again');
    cancel.addEventListener('abort', () => calls.push('late'));
    expect(calls).toEqual(['a']);
    expect(cancel.aborted).toBe(true);
    expect(cancel.reason).toBe('client cancelled');
  });

  it('runs every listener and aborts its signal even when a listener throws, then rethrows the first error', () => {
    const cancel = new CallCancel();
    const signal = cancel.signal;
    const calls: string[] = [];
    cancel.addEventListener('abort', () => {
      throw new Error('first');
    });
    cancel.addEventListener('abort', () => calls.push('second'));
    expect(() => cancel.abort('stop')).toThrow('first');
    expect(calls).toEqual(['second']);
    expect(signal.aborted).toBe(true);
  });

  it('makes a real AbortSignal only when asked, which follows the cancel either way', () => {
    const before = new CallCancel();
    const signal = before.signal;
    expect(signal).toBeInstanceOf(AbortSignal);
    expect(before.signal).toBe(signal);
    let heard: unknown;
    signal.addEventListener('abort', () => (heard = signal.reason));
    before.abort(new Error('stop'));
    expect(signal.aborted).toBe(true);
    expect((heard as Error).message).toBe('stop');

    const after = new CallCancel();
    after.abort();
    expect(after.signal.aborted).toBe(true);
    expect((after.signal.reason as DOMException).name).toBe('AbortError');
    expect(after.reason).toBe(after.signal.reason);
  });

  it('abortSignalOf: a CallCancel\'s own signal, an AbortSignal as it is', () => {
    const cancel = new CallCancel();
    expect(abortSignalOf(cancel)).toBe(cancel.signal);
    const controller = new AbortController();
    expect(abortSignalOf(controller.signal)).toBe(controller.signal);
  });
});
