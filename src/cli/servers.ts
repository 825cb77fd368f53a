// Owns `switchboard servers`: each configured server's key, transport, state, tool count and last
// error (in full: exit code and last stderr lines for a server that exited), entries skipped by the
// config loader, and exit code 1 when a server could not be listed.
import { BARE_PROFILE } from '../servers/profile.js';
import { printJson, table } from './format.js';
import { withInventory } from './inventory.js';
import type { CommonOptions } from './context.js';

/** States in which a configured, enabled server is not serving. */
const DOWN_STATES = new Set(['failed', 'circuit-open', 'needs-login']);

export async function serversCommand(options: CommonOptions & { json?: boolean }): Promise<void> {
  // Each server's problem is in the table; the per-attempt log warnings would only repeat it first (level error by default).
  await withInventory(options, async ({ gateway, catalog, context }) => {
    const rows = context.config.servers.map((server) => {
      const connection = server.disabled ? undefined : gateway.pool.connection(server.key, BARE_PROFILE);
      const listing = catalog.listing(server.key);
      const status = connection?.status();
      const state = server.disabled ? 'disabled' : status!.needsLogin ? 'needs-login' : status!.state;
      return {
        key: server.key,
        transport: server.transport,
        state,
        tools: listing.tools.length,
        prompts: listing.prompts.length,
        resources: listing.resources.length,
        // The connection's own reason (exit code, stderr) is the cause; the listing's error wraps it.
        lastError: status?.lastError ?? listing.error ?? null,
        needsLogin: status?.needsLogin ?? false,
        warnings: listing.warnings,
        serverInfo: status?.serverInfo ?? null,
        connectedAt: status?.connectedAt ?? null,
        lastSuccessAt: status?.lastSuccessAt ?? null,
        downSince: status?.downSince ?? null,
        restarts: status?.restarts ?? 0,
      };
    });
    const skipped = context.config.warnings.map((w) => ({ key: w.serverKey, transport: '', state: 'skipped', tools: 0, prompts: 0, resources: 0, lastError: w.message, warnings: [] as string[] }));
    const failed = rows.filter((r) => DOWN_STATES.has(r.state) || (r.state !== 'disabled' && r.lastError !== null && r.tools + r.prompts + r.resources === 0));
    if (failed.length) process.exitCode = 1;
    if (options.json) return printJson([...rows, ...skipped]);
    process.stdout.write(
      `${table(
        ['KEY', 'TRANSPORT', 'STATE', 'TOOLS', 'LAST ERROR'],
        [...rows, ...skipped].map((r) => [r.key, r.transport, r.state, String(r.tools), r.lastError ?? (r.warnings.length ? `${r.warnings.length} warning(s)` : '')]),
        Number.POSITIVE_INFINITY,
      )}\n`,
    );
    if (failed.length) process.stderr.write(`switchboard: ${failed.length} of ${rows.filter((r) => r.state !== 'disabled').length} server(s) failed: ${failed.map((r) => r.key).join(', ')}\n`);
  }, 'error');
}
