// Owns which cancel a request context carries: a lane call's (lane-request.ts: a CallCancel, which
// makes no AbortSignal unless asked for one), else the SDK's own signal. The forwarding path reads
// it through cancelOf, so a lane call that is never cancelled makes no AbortController.
import type { ServerContext } from '@modelcontextprotocol/server';
import type { CancelSignal } from '../servers/call-cancel.js';
import { LaneRequest } from './lane-request.js';

/** The request's cancel: the lane's own when a lane built the context, else the context's AbortSignal. */
export function cancelOf(ctx: ServerContext): CancelSignal {
  return LaneRequest.cancelOf(ctx.mcpReq) ?? ctx.mcpReq.signal;
}
