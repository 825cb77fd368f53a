// Owns `switchboard servers`: each configured server's key, transport, state, tool count and last error.
import { BARE_PROFILE } from '../servers/profile.js';
import { printJson, table } from './format.js';
import { withInventory } from './inventory.js';
import type { CommonOptions } from './context.js';

export async function serversCommand(options: CommonOptions & { json?: boolean }): Promise<void> {
  await withInventory(options, async ({ gateway, catalog, context }) => {
    const rows = context.config.servers.map((server) => {
      const connection = server.disabled ? undefined : gateway.pool.connection(server.key, BARE_PROFILE);
      const listing = catalog.listing(server.key);
      const status = connection?.status();
      return {
        key: server.key,
        transport: server.transport,
        state: server.disabled ? 'disabled' : status!.state,
        tools: listing.tools.length,
        prompts: listing.prompts.length,
        resources: listing.resources.length,
        lastError: listing.error ?? status?.lastError ?? null,
        warnings: listing.warnings,
        serverInfo: status?.serverInfo ?? null,
        connectedAt: status?.connectedAt ?? null,
        lastSuccessAt: status?.lastSuccessAt ?? null,
        downSince: status?.downSince ?? null,
        restarts: status?.restarts ?? 0,
      };
    });
    if (options.json) return printJson(rows);
    process.stdout.write(
      `${table(
        ['KEY', 'TRANSPORT', 'STATE', 'TOOLS', 'LAST ERROR'],
        rows.map((r) => [r.key, r.transport, r.state, String(r.tools), r.lastError ?? (r.warnings.length ? `${r.warnings.length} warning(s)` : '')]),
        100,
      )}\n`,
    );
  });
}
