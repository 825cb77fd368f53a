// Owns how a new session introduces itself to its client (the initialize answer): the capabilities,
// instructions and server info of its view, and refusing a view that names nothing known. A per-server
// view mirrors that server's capabilities and instructions (handshakes.ts: live when it is up, else as
// it answered at its last connection; only a server never seen is started, waited for at most
// listTimeoutMs); the management endpoint has tools only; every other view is the gateway itself.
import type { ClientCapabilities, Implementation, ServerCapabilities } from '@modelcontextprotocol/server';
import { VERSION } from '../config/version.js';
import type { ServerPool } from '../servers/pool.js';
import { profileOf } from '../servers/profile.js';
import type { ToolsetService } from '../views/toolsets.js';
import { GATEWAY_CAPABILITIES, mirrorCapabilities } from './capabilities.js';
import type { HandshakeCache } from './handshakes.js';
import type { View } from './view.js';

export interface SessionIntroduction {
  capabilities: ServerCapabilities;
  instructions: string | undefined;
  serverInfo: Implementation;
}

export interface IntroductionContext {
  servers: Pick<ServerPool, 'has' | 'keys' | 'connection'>;
  handshakes: Pick<HandshakeCache, 'forInitialize'>;
  /** Saved toolsets, for fixed-toolset views (undefined: no store). */
  toolsets: Pick<ToolsetService, 'get' | 'list'> | undefined;
  /** How long a per-server view waits for a server never seen (settings.listTimeoutMs). */
  listTimeoutMs: number;
  /** Between server key and tool name in exposed names (settings.separator), told in the instructions. */
  separator: string;
}

/** What the session `id` with this view answers to initialize; throws (naming what is known) for an unknown server or toolset. */
export async function introduceSession(view: View, clientCapabilities: ClientCapabilities | undefined, id: string, context: IntroductionContext): Promise<SessionIntroduction> {
  const { servers, toolsets } = context;
  if (view.kind === 'fixed-toolset' && !toolsets?.get(view.name)) {
    throw new Error(`Unknown toolset "${view.name}". Saved toolsets: ${toolsets?.list().map((t) => t.name).join(', ') || 'none'}.`);
  }
  if (view.kind === 'management') {
    return {
      capabilities: { tools: {} },
      instructions: 'Switchboard management: tools about the gateway itself (call metrics, ...).',
      serverInfo: { name: 'switchboard/management', version: VERSION },
    };
  }
  const gatewayInstructions = gatewayInstructionsOf(servers.keys(), context.separator);
  if (view.kind === 'server') {
    if (!servers.has(view.server)) throw new Error(`Unknown server "${view.server}"`);
    const probe = servers.connection(view.server, profileOf(clientCapabilities, id))!;
    const handshake = await context.handshakes.forInitialize(probe, context.listTimeoutMs);
    return {
      capabilities: mirrorCapabilities(handshake?.capabilities),
      instructions: handshake ? handshake.instructions : gatewayInstructions,
      serverInfo: { name: `switchboard/${view.server}`, version: VERSION },
    };
  }
  return { capabilities: GATEWAY_CAPABILITIES, instructions: gatewayInstructions, serverInfo: { name: 'switchboard', version: VERSION } };
}

function gatewayInstructionsOf(keys: readonly string[], separator: string): string {
  return `Switchboard gateway: tools of ${keys.length} MCP server(s) (${keys.join(', ')}), named <server>${separator}<tool>.`;
}
