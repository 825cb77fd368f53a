// Owns the stdio face: one client session over this process's stdin/stdout. stdout carries only
// JSON-RPC; the session (and the caller's shutdown) ends when stdin closes.
import { parseJSONRPCMessage } from '@modelcontextprotocol/server';
import { CheckedStdioTransport } from './stdio-transport.js';
import type { Gateway } from './gateway.js';
import { ALL, type View } from './view.js';

export async function serveStdio(gateway: Gateway, onClosed: () => void, view: View = ALL): Promise<void> {
  const session = await gateway.createSession(view);
  const transport = new CheckedStdioTransport(gateway.limits.maxBodyBytes, parseJSONRPCMessage);
  transport.onclose = () => {
    gateway.endSession(session);
    onClosed();
  };
  await session.server.connect(transport);
  process.stdin.once('end', () => void transport.close());
}
