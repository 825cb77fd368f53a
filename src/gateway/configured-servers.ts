// Owns the configured servers: the server list last applied (the config at start and on every change,
// with the tool selections set at runtime laid over it), applying it to the pool and every catalog
// (servers added, removed or restarted are re-listed; one started only for that listing stops again),
// restarts asked for through the admin API, and the boot warm-up: servers that must run now are started
// and pinned, and servers never seen are listed once so their tools are cached for the next start.
import type { Catalog } from '../catalog/catalog.js';
import type { ServerConfig } from '../config/index.js';
import type { MetricsRegistry } from '../metrics/prometheus.js';
import type { ServerPool } from '../servers/pool.js';
import { BARE_PROFILE } from '../servers/profile.js';
import type { CatalogRepository } from '../store/index.js';
import type { CatalogRegistry } from './ports.js';

/** Which tools of a server are visible, set at runtime over the config file (until the gateway stops). */
export interface ToolSelection {
  enabledTools?: string[];
  disabledTools?: string[];
}

export interface ConfiguredServersContext {
  pool: ServerPool;
  /** Every catalog made so far, one per capability profile. */
  catalogs: ReadonlyMap<string, Catalog>;
  /** Makes the bare profile's catalog when no client has made it yet. */
  registry: CatalogRegistry;
  /** Servers start on first use (settings.lazy); off: every server starts at boot. */
  lazy: boolean;
  /** When each server was last listed (the store's catalog); undefined (no store): no discovery at boot. */
  listings: Pick<CatalogRepository, 'listedAt'> | undefined;
  metrics: Pick<MetricsRegistry, 'removeServer'> | undefined;
  /** Stops the connections no client session needs (connection-release.ts). */
  releaseUnused(): Promise<void>;
}

export class ConfiguredServers {
  /** Servers started at boot on purpose (lazy: false, preconnect): their bare-profile connection stays up without sessions. */
  readonly pinned = new Set<string>();
  /** The server list last applied, tool selections laid over it. */
  private configured: ServerConfig[] = [];
  private readonly toolSelections = new Map<string, ToolSelection>();

  constructor(private readonly context: ConfiguredServersContext) {}

  /** Applies a server list (at start and on every config change); catalogs follow. */
  async apply(servers: ServerConfig[]): Promise<void> {
    this.configured = servers.map((server) => {
      const override = this.toolSelections.get(server.key);
      return override ? { ...server, ...override } : server;
    });
    await this.applyConfigured();
  }

  /**
   * Changes which tools of a server are visible (enabledTools / disabledTools) without editing the
   * config file; the override lasts until the gateway stops. The server restarts with the new
   * selection and clients are told the list changed. Returns false for an unknown server.
   */
  async setToolSelection(key: string, selection: ToolSelection): Promise<boolean> {
    if (!this.configured.some((s) => s.key === key)) return false;
    const override = { enabledTools: selection.enabledTools, disabledTools: selection.disabledTools };
    this.toolSelections.set(key, override);
    this.configured = this.configured.map((s) => (s.key === key ? { ...s, ...override } : s));
    await this.applyConfigured();
    return true;
  }

  /**
   * Restarts a server's connections (a server no client uses yet is started by listing it); every catalog
   * re-lists it once it is back. Returns false for an unknown server.
   */
  async restart(key: string): Promise<boolean> {
    const { pool, catalogs, registry } = this.context;
    if (!pool.has(key)) return false;
    const connections = pool.connections(key);
    await Promise.all(connections.map((c) => c.restart('restart requested through the admin API')));
    await Promise.all([...catalogs.values()].map((catalog) => catalog.refresh(key)));
    if (connections.length === 0) await registry.catalogFor(BARE_PROFILE).refresh(key);
    return true;
  }

  /**
   * At boot: starts the servers that must run now (`lazy: false`, listed in `preconnect`, or
   * everything when lazy start is off), and lists each server never seen before once in the
   * background so its tools are cached for the next start, then stops it again.
   */
  async warmUp(preconnect: readonly string[] = [], discoveryDelayMs = 2000): Promise<void> {
    const { pool, listings } = this.context;
    const catalog = this.context.registry.catalogFor(BARE_PROFILE);
    const keys = pool.keys();
    const eager = keys.filter((key) => !this.context.lazy || pool.config(key)!.lazy === false || preconnect.includes(key));
    for (const key of eager) this.pinned.add(key);
    await Promise.all(eager.map((key) => catalog.refresh(key, undefined, { quiet: true })));
    if (!listings) return;
    // Discovery waits a moment: a client that connects at once starts what it needs itself.
    await new Promise((resolve) => setTimeout(resolve, discoveryDelayMs).unref());
    const unseen = pool.keys().filter(
      (key) => !eager.includes(key) && pool.connections(key).length === 0 && listings.listedAt(catalog.storageKey(key)) === undefined,
    );
    await Promise.all(unseen.map((key) => catalog.refresh(key, undefined, { quiet: true })));
    await this.context.releaseUnused();
  }

  private async applyConfigured(): Promise<void> {
    const { pool, catalogs, metrics } = this.context;
    const { added, removed, restarted } = await pool.apply(this.configured);
    for (const key of [...removed, ...restarted]) for (const catalog of catalogs.values()) catalog.forget(key);
    for (const key of removed) metrics?.removeServer(key);
    const listings = [...added, ...restarted].flatMap((key) => [...catalogs.values()].map((catalog) => catalog.refresh(key)));
    // A server started only to re-list it after the edit stops again when no client uses it.
    if (listings.length) void Promise.all(listings).then(() => this.context.releaseUnused());
  }
}
