// Owns what the gateway advertises to a client: its own capabilities on the merged endpoints, and on
// a per-server endpoint that server's own capabilities less what the gateway does not relay.
import type { ServerCapabilities } from '@modelcontextprotocol/server';

export const GATEWAY_CAPABILITIES: ServerCapabilities = {
  tools: { listChanged: true },
  prompts: { listChanged: true },
  resources: { subscribe: true, listChanged: true },
  logging: {},
  completions: {},
};

/** What a per-server endpoint advertises: the server's own capabilities, less what the gateway does not relay. */
export function mirrorCapabilities(capabilities: ServerCapabilities | undefined): ServerCapabilities {
  if (!capabilities) return GATEWAY_CAPABILITIES;
  const { tasks: _tasks, ...rest } = capabilities as ServerCapabilities & { tasks?: unknown };
  return rest;
}
