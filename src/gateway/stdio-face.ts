// Owns the stdio face: one client connection over this process's stdin/stdout. stdout carries only
// JSON-RPC; the session (and the caller's shutdown) ends when stdin closes. With inboundEra auto
// the connection's opening picks the era (the SDK's serveStdio): initialize or a claim-less message
// pins a 2025-era session; a request with the 2026-07-28 `_meta` envelope pins a modern one (its
// server/discover answered at once; a client that falls back to initialize after it gets a 2025
// session). With inboundEra legacy it is a 2025 session from the first byte.
import { parseJSONRPCMessage } from '@modelcontextprotocol/server';
import { serveStdio as serveBothEras } from '@modelcontextprotocol/server/stdio';
import { CheckedStdioTransport } from './stdio-transport.js';
import type { Gateway } from './gateway.js';
import { ALL, type View } from './view.js';
import { DEFAULT_INBOUND_ERA, type InboundEraSetting } from './era.js';

export async function serveStdio(gateway: Gateway, onClosed: () => void, view: View = ALL, inboundEra: InboundEraSetting = DEFAULT_INBOUND_ERA): Promise<void> {
  const transport = new CheckedStdioTransport(gateway.limits.maxBodyBytes, parseJSONRPCMessage);
  if (inboundEra === 'legacy') {
    const session = await gateway.createSession(view);
    transport.onclose = () => {
      gateway.endSession(session);
      onClosed();
    };
    await session.server.connect(transport);
  } else {
    // Each instance the SDK asks for is a gateway session of that era; the SDK closes it (and so
    // ends the session) when the connection closes or a discarded probe instance is dropped.
    serveBothEras(async ({ era }) => (await gateway.createSession(view, undefined, { era })).server, {
      transport,
      onerror: (error) => gateway.log.debug({ err: error.message }, 'stdio face'),
    });
    const sdkOnClose = transport.onclose;
    transport.onclose = () => {
      sdkOnClose?.();
      onClosed();
    };
  }
  process.stdin.once('end', () => void transport.close());
}
