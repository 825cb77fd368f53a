// Owns the in-process inventory the listing commands share: start the gateway on the config, list
// every server once (bare capability profile), hand the catalog to the command, stop everything.
import type { Catalog } from '../catalog/catalog.js';
import type { Gateway } from '../gateway/gateway.js';
import { BARE_PROFILE } from '../servers/profile.js';
import { CredentialStore } from '../auth/credential-store.js';
import { reportStartProgress } from './progress.js';
import { gatewayFor, loadContext, openStore, type CommandContext, type CommonOptions } from './context.js';

export async function withInventory<T>(
  options: CommonOptions & { server?: string },
  body: (inventory: { gateway: Gateway; catalog: Catalog; context: CommandContext }) => Promise<T>,
  defaultLevel: 'warn' | 'error' = 'warn',
): Promise<T> {
  const context = await loadContext(options, defaultLevel);
  const store = openStore(context.dataDir, context.config.settings);
  const gateway = gatewayFor(context.config, { connectTimeoutMs: 20_000, lazy: false }, { store, credentials: new CredentialStore(context.dataDir) });
  try {
    await gateway.applyServers(context.config.servers);
    if (options.server && !gateway.pool.has(options.server)) {
      throw new UsageError(`Unknown server "${options.server}". Configured: ${gateway.pool.keys().join(', ') || 'none'}.`);
    }
    const catalog = gateway.catalogFor(BARE_PROFILE);
    // One line rewritten in place, erased before the command prints, unless log lines may come between.
    const stopProgress = reportStartProgress(gateway.pool, context.log, process.stderr, { inPlace: !context.log.isLevelEnabled('warn') });
    await catalog.ensure(options.server ? [options.server] : undefined).finally(stopProgress);
    return await body({ gateway, catalog, context });
  } finally {
    await gateway.close();
    store.close();
  }
}

/** A mistake in how the command was called: exit code 2, message only. */
export { UsageError } from './errors.js';
import { UsageError } from './errors.js';
