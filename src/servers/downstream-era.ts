// Owns which protocol era the gateway speaks to a downstream server: the 2025 era (initialize)
// unless an HTTP server's entry says `era: auto` (probe with server/discover, fall back to
// initialize) or `era: "2026-07-28"` (that revision only). A server spoken to in the 2026-07-28
// era announces list changes only on a subscriptions/listen stream, which is opened once connected.
import type { Client } from '@modelcontextprotocol/client';
import type { ServerConfig } from '../config/index.js';
import type { Logger } from '../logging/logger.js';

/** The SDK client's versionNegotiation option for a server's entry (none: the 2025 era). */
export function versionNegotiationFor(config: ServerConfig): { versionNegotiation?: { mode: 'auto' | { pin: string } } } {
  if (config.transport !== 'http' || config.era === undefined || config.era === 'legacy') return {};
  return { versionNegotiation: { mode: config.era === 'auto' ? 'auto' : { pin: config.era } } };
}

/** Opens the listen stream of a 2026-07-28 server; its notifications reach the client's handlers. */
export async function listenForChanges(client: Client, log: Logger): Promise<void> {
  const capabilities = client.getServerCapabilities() ?? {};
  const filter = {
    ...(capabilities.tools?.listChanged && { toolsListChanged: true }),
    ...(capabilities.prompts?.listChanged && { promptsListChanged: true }),
    ...(capabilities.resources?.listChanged && { resourcesListChanged: true }),
  };
  if (Object.keys(filter).length === 0) return;
  try {
    await client.listen(filter);
  } catch (error) {
    log.warn({ err: (error as Error).message }, 'subscriptions/listen refused: list changes of this server are not followed');
  }
}
