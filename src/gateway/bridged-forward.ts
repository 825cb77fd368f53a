// Owns forwarding a 2026-07-28 client's request through the MRTR bridge: when the client declared
// sampling, elicitation or roots in the request's envelope, a tools/call, prompts/get or
// resources/read runs on a connection of its own (owned by the bridge handle, so only that call's
// questions come back to this client), detached from the HTTP exchange that started it; a retry
// carrying the sealed requestState continues it (mrtr-bridge.ts). The connection is a lane: a warm
// spare when one is up, kept for the next call when this one answers (bridge-lanes.ts).
import type { ClientCapabilities, JSONRPCRequest, ServerContext } from '@modelcontextprotocol/server';
import type { Connection } from '../servers/connection.js';
import { profileOf } from '../servers/profile.js';
import { serverUnavailable } from '../servers/errors.js';
import { forwardRequest, type ForwardingSession } from './forward.js';
import { ProtocolError } from '@modelcontextprotocol/server';
import { clientOf } from './mrtr-bridge.js';

type Params = Record<string, unknown>;
type Result = Record<string, unknown>;

/** The requests whose 2026-07-28 results may be input_required. */
export const BRIDGED_METHODS: ReadonlySet<string> = new Set(['tools/call', 'prompts/get', 'resources/read']);

/** Whether a retry continues a bridged call (it carries a requestState). */
export function continuesBridgedCall(request: JSONRPCRequest, ctx: ServerContext): boolean {
  return BRIDGED_METHODS.has(request.method) && ctx.mcpReq.requestState() !== undefined;
}

/** Continues a bridged call with the retry's inputResponses (the bridge verifies the requestState). */
export function resumeBridged(session: ForwardingSession, ctx: ServerContext): Promise<Result> {
  const sealed = ctx.mcpReq.requestState();
  if (typeof sealed !== 'string') throw new ProtocolError(-32602, 'Invalid params: requestState must be the string this gateway sent.');
  return session.services.bridge.resume(ctx, sealed);
}

/**
 * Forwards through the bridge: a connection of the call's own (profile owned by the handle) to the
 * same server, the call cancelled only by the handle's expiry, progress dropped once the exchange
 * that started it has ended.
 */
export function forwardBridged(session: ForwardingSession, capabilities: ClientCapabilities, connection: Connection, request: JSONRPCRequest, params: Params, ctx: ServerContext, label: string | undefined, record: boolean): Promise<Result> {
  const { servers: pool, bridge, bridgeLanes } = session.services;
  const lane = bridgeLanes.take(connection.key, capabilities, clientOf(ctx));
  return bridge.start(
    ctx,
    (handle, signal) => {
      const own = pool.connection(connection.key, profileOf(capabilities, handle));
      if (!own) throw serverUnavailable(connection.key, 'it is no longer configured', 'List the tools again to see what is available now.');
      const exchangeEnded = () => ctx.mcpReq.signal.aborted;
      const detached = { ...ctx, mcpReq: { ...ctx.mcpReq, signal, notify: (n: Parameters<ServerContext['mcpReq']['notify']>[0]) => (exchangeEnded() ? Promise.resolve() : ctx.mcpReq.notify(n)) } } as ServerContext;
      return forwardRequest(session, own, request, params, detached, label, record);
    },
    (handle, settled) => bridgeLanes.giveBack(handle, settled),
    lane,
  );
}
