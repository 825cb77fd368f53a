// Owns which cancel a request context carries: a lane call's CallCancel (servers/call-cancel.ts),
// which makes no AbortSignal unless asked for one, else the SDK's own signal. The forwarding path
// reads it through cancelOf, so a lane call that is never cancelled makes no AbortController.
import type { ServerContext } from '@modelcontextprotocol/server';
import type { CancelSignal } from '../servers/call-cancel.js';

const CANCEL = Symbol('switchboard.cancel');

/** The request's cancel: the lane's own when it set one, else the context's AbortSignal. */
export function cancelOf(ctx: ServerContext): CancelSignal {
  return (ctx.mcpReq as { [CANCEL]?: CancelSignal })[CANCEL] ?? ctx.mcpReq.signal;
}

/** Stores a lane call's cancel on the `mcpReq` object it builds: not enumerable, so a copy of the object (a detached context) does not carry it. */
export function carryCancel<T extends object>(mcpReq: T, cancel: CancelSignal): T {
  return Object.defineProperty(mcpReq, CANCEL, { value: cancel });
}
