// Owns what a connection knows about the cause of a server's log message: which callers (client
// sessions, by an opaque id) had requests running on the connection when the message arrived. The
// set is taken off the wire in arrival order, before the SDK dispatches the message (a microtask
// late, when a response in the same chunk may already have retired its request), and travels with
// the message to the gateway, which routes by it (src/gateway/log-audience.ts). Over stdio and on a
// Streamable HTTP request's own response stream a message a request causes arrives before that
// request's answer, so a request is counted from just before it is sent until its answer is in.
import type { Transport } from '@modelcontextprotocol/client';

/** Where the set rides on the message's params: a symbol, so it is copied by spreads and never serialized. */
const CALLERS = Symbol('switchboard.logCallers');

type Params = Record<string | symbol, unknown>;

export class LogCallers {
  /** Requests running now, counted per caller. */
  private readonly running = new Map<string, number>();

  /** A request of `caller` is about to be sent (no caller: the gateway's own request, not counted). */
  begin(caller: string | undefined): void {
    if (caller !== undefined) this.running.set(caller, (this.running.get(caller) ?? 0) + 1);
  }

  /** That request was answered, failed or given up. */
  end(caller: string | undefined): void {
    if (caller === undefined) return;
    const left = (this.running.get(caller) ?? 1) - 1;
    if (left > 0) this.running.set(caller, left);
    else this.running.delete(caller);
  }

  /** Wraps a connected transport's message handler: each log message is stamped with the callers running now. */
  attach(transport: Transport): void {
    const deliver = transport.onmessage;
    transport.onmessage = (message, extra) => {
      const candidate = message as { method?: string; params?: unknown };
      if (candidate.method === 'notifications/message' && typeof candidate.params === 'object' && candidate.params !== null) {
        (candidate.params as Params)[CALLERS] = Object.freeze([...this.running.keys()]);
      }
      deliver?.call(transport, message, extra);
    };
  }
}

/**
 * A notification as the server sent it (the stamp removed) and, for a log message, the callers that
 * had requests running when it arrived (undefined for anything else).
 */
export function takeLogCallers<T extends { method: string; params?: Record<string, unknown> }>(notification: T): { notification: T; callers: readonly string[] | undefined } {
  const params = notification.params as Params | undefined;
  if (!params || !(CALLERS in params)) return { notification, callers: undefined };
  const { [CALLERS]: callers, ...rest } = params;
  return { notification: { ...notification, params: rest }, callers: callers as readonly string[] };
}
