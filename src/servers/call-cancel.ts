// Owns a forwarded call's cancel without an AbortController: the part of an AbortSignal the
// forwarding path uses (aborted, reason, 'abort' listeners added and removed), as a plain object.
// A real AbortSignal (each costs ~9 µs to make, the largest single JavaScript cost of a stdio call
// in the profile, docs/performance.md seventh pass) is made only when code asks for one (`signal`:
// a request context's signal, the SDK's request path), and follows the cancel from then on.
// Used by both faces' relay lanes (gateway/stdio-fast-calls.ts, http/call-lane.ts); senders take
// either kind.

/** What the forwarding path reads of a cancel: an AbortSignal is one, and so is a CallCancel. */
export interface CancelSignal {
  readonly aborted: boolean;
  readonly reason: unknown;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

export class CallCancel implements CancelSignal {
  aborted = false;
  reason: unknown = undefined;
  private listeners: Array<() => void> | undefined;
  private controller: AbortController | undefined;

  /** A real AbortSignal that follows this cancel (made on first use; already aborted when the cancel came first). */
  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.aborted) this.controller.abort(this.reason);
    }
    return this.controller.signal;
  }

  /** As on an AbortSignal, a listener added after the abort is never called. Every listener is called once. */
  addEventListener(_type: 'abort', listener: () => void, _options?: { once?: boolean }): void {
    if (this.aborted) return;
    (this.listeners ??= []).push(listener);
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    const at = this.listeners?.indexOf(listener) ?? -1;
    if (at >= 0) this.listeners!.splice(at, 1);
  }

  /** Aborts: the real signal first (if made), then every listener, even when one throws (the first error is rethrown after). */
  abort(reason?: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason ?? new DOMException('This operation was aborted', 'AbortError');
    this.controller?.abort(this.reason);
    const listeners = this.listeners;
    this.listeners = undefined;
    if (!listeners) return;
    let failure: { error: unknown } | undefined;
    for (const listener of listeners) {
      try {
        listener();
      } catch (error) {
        failure ??= { error };
      }
    }
    if (failure) throw failure.error;
  }
}

/** The AbortSignal an API of others needs (the SDK's request options): a CallCancel's own, made now. */
export function abortSignalOf(signal: CancelSignal): AbortSignal {
  return signal instanceof CallCancel ? signal.signal : (signal as AbortSignal);
}
