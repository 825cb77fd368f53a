// Owns the stdio face: one client connection over this process's stdin/stdout. stdout carries only
// JSON-RPC; the session (and the caller's shutdown) ends when stdin closes. With inboundEra auto
// the connection's opening picks the era (the SDK's serveStdio): initialize or a claim-less message
// pins a 2025-era session; a request with the 2026-07-28 `_meta` envelope pins a modern one (its
// server/discover answered at once; a client that falls back to initialize after it gets a 2025
// session). A modern connection's listen streams subscribe to the resources they name and hold the
// servers they listen to (stdio-listen.ts). With inboundEra legacy it is a 2025 session from the
// first byte.
import { parseJSONRPCMessage } from '@modelcontextprotocol/server';
import { serveStdio as serveBothEras } from '@modelcontextprotocol/server/stdio';
import { CheckedStdioTransport } from './stdio-transport.js';
import type { Gateway } from './gateway.js';
import { ALL, type View } from './view.js';
import { DEFAULT_INBOUND_ERA, type InboundEraSetting } from './era.js';
import { StdioListenStreams } from './stdio-listen.js';
import { StdioFastCalls } from './stdio-fast-calls.js';
import type { GatewaySession } from './session.js';

/** `onSession`: told of each session this face opens, once it exists (serve starts its early servers' connections then). */
export async function serveStdio(gateway: Gateway, onClosed: () => void, view: View = ALL, inboundEra: InboundEraSetting = DEFAULT_INBOUND_ERA, onSession?: (session: GatewaySession) => void): Promise<void> {
  const transport = new CheckedStdioTransport(gateway.limits.maxBodyBytes, parseJSONRPCMessage);
  // tools/call of the 2025-era session skips the SDK server's dispatch (stdio-fast-calls.ts).
  const fast = new StdioFastCalls((message) => transport.send(message));
  transport.intercept = (value) => fast.take(value);
  if (inboundEra === 'legacy') {
    const session = await gateway.createSession(view);
    fast.serve(session);
    onSession?.(session);
    transport.onclose = () => {
      fast.close();
      gateway.endSession(session);
      onClosed();
    };
    await session.server.connect(transport);
  } else {
    // Each instance the SDK asks for is a gateway session of that era; the SDK closes it (and so
    // ends the session) when the connection closes or a discarded probe instance is dropped.
    const listens = new StdioListenStreams(gateway, view);
    serveBothEras(
      async ({ era }) => {
        const session = await gateway.createSession(view, undefined, { era });
        if (era === 'modern') listens.modernSession(session);
        else fast.serve(session);
        onSession?.(session);
        return session.server;
      },
      { transport, onerror: (error) => gateway.log.debug({ err: error.message }, 'stdio face') },
    );
    // Every message passes the listen streams first (a listen is held before the SDK acknowledges it).
    transport.onmessage = listens.before(transport.onmessage);
    const sdkOnClose = transport.onclose;
    transport.onclose = () => {
      fast.close();
      listens.close();
      sdkOnClose?.();
      onClosed();
    };
  }
  process.stdin.once('end', () => void transport.close());
}
