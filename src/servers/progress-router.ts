// Owns progress for forwarded requests: the gateway issues its own tokens downstream and takes
// their notifications off the wire in arrival order. The SDK hands notifications to handlers a
// microtask late, after a response that arrived in the same chunk has already retired the request
// (the last progress update was lost), and it would replace our token with its own. Tokens we did
// not issue go on to the SDK as usual.
import type { Transport } from '@modelcontextprotocol/client';

export type ProgressListener = (progress: Record<string, unknown>) => void;

/** Tokens are unique within the process: a prefix no client token is likely to use, and a counter. */
const TOKEN_PREFIX = 'switchboard-progress-';
let counter = 0;

export class ProgressRouter {
  private readonly listeners = new Map<string, ProgressListener>();

  /** Wraps a connected transport's message handler (call after the SDK has connected it). */
  attach(transport: Transport): void {
    const deliver = transport.onmessage;
    transport.onmessage = (message, extra) => {
      const candidate = message as { method?: string; params?: Record<string, unknown> };
      if (candidate.method === 'notifications/progress' && candidate.params) {
        const { progressToken, ...progress } = candidate.params;
        if (typeof progressToken === 'string' && progressToken.startsWith(TOKEN_PREFIX)) {
          this.listeners.get(progressToken)?.(progress);
          return;
        }
      }
      deliver?.call(transport, message, extra);
    };
  }

  /** A fresh token whose progress goes to `listener` until unregistered. */
  register(listener: ProgressListener): string {
    const token = `${TOKEN_PREFIX}${++counter}`;
    this.listeners.set(token, listener);
    return token;
  }

  unregister(token: string): void {
    this.listeners.delete(token);
  }
}
