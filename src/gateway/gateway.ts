// Owns the Gateway, the composition root: it builds the services (server pool, one catalog per
// capability profile, call recorder, search and ranking, toolsets, session router, configured servers)
// and hands each consumer a narrow port (ports.ts). The live client sessions are session-registry.ts; log
// levels fan out in log-level-fanout.ts. Nothing below the faces imports this module. Applying configuration and
// the boot warm-up are configured-servers.ts; a session's initialize answer is session-introduction.ts;
// traffic between servers and sessions that is not a plain request is routed by session-router.ts.
import type { ClientCapabilities, LoggingLevel } from '@modelcontextprotocol/server';
import type { ServerConfig } from '../config/index.js';
import { moduleLogger } from '../logging/logger.js';
import { Catalog } from '../catalog/catalog.js';
import type { DescriptionOverlay } from '../catalog/overlay.js';
import type { DefinitionPins } from '../catalog/pinning.js';
import type { OptimizationToolHost } from '../optimize/mcp-tools.js';
import type { CredentialStore } from '../auth/credential-store.js';
import { ServerPool } from '../servers/pool.js';
import { BARE_PROFILE, type CapabilityProfile } from '../servers/profile.js';
import type { CallRecord, Store } from '../store/index.js';
import { ToolMetricsAnnotator } from './tool-metrics.js';
import type { MetricsRegistry } from '../metrics/prometheus.js';
import { CallRecorder } from '../metrics/call-recorder.js';
import { ActivityFeed } from '../metrics/activity.js';
import type { GatewaySession } from './session.js';
import { LogLevelFanOut } from './log-level-fanout.js';
import { SubscriptionRegistry, type ResourceSubscriber } from './subscriptions.js';
import { ToolRanking } from './recommendations.js';
import type { CallSink, CatalogRegistry, LocalToolContext, SessionLifecycle, SessionServices } from './ports.js';
import { ToolsetService } from '../views/toolsets.js';
import { viewIncludes, type View } from './view.js';
import { ToolSearch } from './tool-search.js';
import { SessionRouter } from './session-router.js';
import { ConnectionReleaser } from './connection-release.js';
import { ConfiguredServers, type ToolSelection } from './configured-servers.js';
import { SessionRegistry, type SessionKind } from './session-registry.js';
import { DEFAULT_GATEWAY_SETTINGS, type GatewaySettings, type MetaSettings } from './gateway-settings.js';
import { HandshakeCache } from './handshakes.js';
import { downServers, serverState, serverStatuses, type ServerStatus } from './server-status.js';
import type { LimitSettings } from '../config/index.js';

export { VERSION } from '../config/version.js';
import { ListChangeFeed } from './list-change-feed.js';
import { MrtrBridge } from './mrtr-bridge.js';
import { ListenHolds } from './listen-holds.js';
import { BridgeLanes } from './bridge-lanes.js';
export { DEFAULT_GATEWAY_SETTINGS, DEFAULT_META_SETTINGS, gatewaySettingsOf, type GatewaySettings, type MetaSettings } from './gateway-settings.js';

/** What the gateway keeps outside memory; both optional (tests and tools may run without). */
export interface GatewayServices {
  store?: Store;
  metrics?: MetricsRegistry;
  /** Description overrides and promotions, applied on every face (see src/optimize/overrides.ts). */
  descriptions?: DescriptionOverlay;
  /** Definition pinning (src/catalog/pinning.ts); none: definitions are not checked. */
  pins?: DefinitionPins;
  /** Stored OAuth logins for remote servers (switchboard login); absent: only configured headers are sent. */
  credentials?: CredentialStore;
  /** The optimization tools on /gateway/mcp (serve, when optimization is enabled), built once the gateway exists. */
  optimization?: (gateway: Gateway) => OptimizationToolHost | undefined;
}

export class Gateway implements CallSink, CatalogRegistry, SessionLifecycle<GatewaySession> {
  readonly pool: ServerPool;
  /** Resolved by config/ (gatewaySettingsOf), defaults from DEFAULT_SETTINGS; read-only from construction on. */
  readonly settings: Readonly<GatewaySettings>;
  readonly subscriptions = new SubscriptionRegistry<ResourceSubscriber>();
  /** Every list change, for faces without sessions (2026-07-28 subscriptions/listen). */
  readonly listChanges = new ListChangeFeed();
  /** What open 2026-07-28 listen streams keep running (listen-holds.ts). */
  readonly listenHolds = new ListenHolds();
  /** Server requests of a 2026-07-28 client's calls, relayed as input_required (mrtr-bridge.ts). */
  readonly bridge: MrtrBridge;
  /** The connections bridged calls run on, with a warm spare per client, server and capabilities (bridge-lanes.ts). */
  readonly bridgeLanes: BridgeLanes;
  readonly log = moduleLogger('gateway');
  private readonly catalogs = new Map<string, Catalog>();
  /** The live client sessions: opened and ended here, what follows an end injected (session-registry.ts). */
  private readonly sessions: SessionRegistry;
  /** Notifications up, list_changed debounced, reverse requests to the right client. */
  private readonly router: SessionRouter;
  /** Log levels sessions set, sent to their connections. */
  private readonly logLevels: LogLevelFanOut;
  /** The server list last applied, runtime tool selections, admin restarts, the boot warm-up (pins servers). */
  private readonly configured: ConfiguredServers;
  /** Stops connections no session needs (last session gone, idle, unused shared). */
  private readonly releaser: ConnectionReleaser;

  readonly store: Store | undefined;
  /** Saved and equipped toolsets (needs the store). */
  readonly toolsets: ToolsetService | undefined;
  readonly metrics: MetricsRegistry | undefined;
  readonly descriptions: DescriptionOverlay | undefined;
  readonly pins: DefinitionPins | undefined;
  /** Search engines per catalog, learning from use, success-rate priors. */
  readonly search: ToolSearch;
  /** Servers' initialize answers, remembered so per-server endpoints open sessions without starting them. */
  readonly handshakes: HandshakeCache;
  /** Records calls (store, Prometheus, in-memory per-tool stats), rolls up, checkpoints the WAL. */
  readonly calls: CallRecorder;
  /** Search, fallbacks and recommendations, weighed by recorded success rates. */
  readonly ranking: ToolRanking;
  /** What the local tools (management, toolsets, meta) act on. */
  readonly local: LocalToolContext;
  /** What just happened (calls, server requests), for live views: GET /api/activity. */
  readonly activity = new ActivityFeed();
  /** Puts call metrics into listed tools' `_meta` when `includeMetrics` is on. */
  readonly toolMetrics: ToolMetricsAnnotator | undefined;
  /** Optimization tools on /gateway/mcp (services.optimization); undefined: optimization is off. */
  readonly optimization: OptimizationToolHost | undefined;
  /** Meta-mode settings (settings.meta). */
  readonly meta: MetaSettings;
  /** Bounds on client input and results (settings.limits). */
  readonly limits: LimitSettings;

  constructor(settings: Partial<GatewaySettings> = {}, services: GatewayServices = {}) {
    this.settings = Object.freeze({ ...DEFAULT_GATEWAY_SETTINGS, ...settings });
    this.bridge = new MrtrBridge({ ttlMs: this.settings.inputRequiredTtlMs, log: this.log });
    this.meta = this.settings.meta;
    this.limits = this.settings.limits;
    this.store = services.store;
    this.metrics = services.metrics;
    this.descriptions = services.descriptions;
    this.pins = services.pins;
    // Ranking counts only calls made to each server's current identity (another project's "x" is another server).
    this.calls = new CallRecorder({ store: this.store, registry: this.metrics, record: this.settings.recordCalls, log: this.log, identityOf: (server) => this.pool.identity(server) });
    this.search = new ToolSearch({ settings: this.settings.search, store: this.store, stats: this.calls.stats, log: this.log, serverDescription: (server) => this.pool.config(server)?.description, learningLimits: () => ({ quorum: this.limits.learningQuorum, perSession: this.limits.learnedQueriesPerSession, maxQueryLength: this.limits.maxQueryLength }) });
    this.router = new SessionRouter({
      sessions: () => this.sessions,
      session: (id) => this.sessions.byId(id),
      catalog: (profileKey) => this.catalogs.get(profileKey),
      subscriptions: this.subscriptions,
      listChangedDebounceMs: this.settings.listChangedDebounceMs,
      log: this.log,
      activity: this.activity,
      bridge: this.bridge,
    });
    this.toolsets = this.store ? new ToolsetService(this.store.toolsets, () => {
          this.router.toolsetEquipChanged();
          this.listChanges.publish({ toolsetDefault: true, kinds: ['tools'] });
        }) : undefined;
    this.pool = new ServerPool({
      requestTimeoutMs: this.settings.requestTimeoutMs,
      resilience: this.settings.resilience,
      onReverseRequest: (connection, request, signal) => this.router.reverseRequest(connection, request, signal),
      ...(services.credentials && { credentials: services.credentials }),
    });
    this.logLevels = new LogLevelFanOut({ pool: this.pool, router: this.router, log: this.log });
    this.bridgeLanes = new BridgeLanes(this.pool, this.log);
    this.pool.on('notification', (connection, notification, callers) => this.router.onServerNotification(connection, notification, callers));
    // A server that came back may list something else, one that failed its first listing has nothing
    // listed yet, and one served from the cache is re-read live: clients hear only of real changes.
    this.handshakes = new HandshakeCache(this.store?.handshakes, this.log);
    this.pool.on('up', (connection, again) => {
      this.handshakes.remember(connection);
      this.logLevels.connectionUp(connection);
      const catalog = this.catalogs.get(connection.profile.key);
      const listing = catalog?.listing(connection.key);
      if (catalog && (again || listing?.error || listing?.cached)) catalog.relistSoon(connection, again || listing?.error !== undefined);
    });
    this.pool.on('state', (connection) => this.metrics?.setConnectionState(connection.key, serverState(this.pool, connection.key)));
    this.configured = new ConfiguredServers({
      pool: this.pool,
      catalogs: this.catalogs,
      registry: this,
      lazy: this.settings.lazy,
      listings: this.store?.catalog,
      metrics: this.metrics,
      releaseUnused: () => this.releaseUnused(),
    });
    this.releaser = new ConnectionReleaser({
      pool: this.pool,
      sessions: () => this.sessions,
      catalogs: this.catalogs,
      subscriptions: this.subscriptions,
      pinned: this.configured.pinned,
      listenHolds: this.listenHolds,
      isolatedIdleMs: this.settings.isolatedIdleMs,
      log: this.log,
      keepsOwner: (owner) => this.bridge.owns(owner) || this.bridgeLanes.owns(owner),
      onIdleRound: (cutoff) => this.bridgeLanes.releaseIdle(cutoff),
    });
    if (this.store) {
      if (this.settings.includeMetrics) this.toolMetrics = new ToolMetricsAnnotator(this.store.metrics, { onError: (message) => this.log.warn(message), scope: () => this.pool.identities() });
    }
    this.ranking = new ToolRanking({ search: this.search, stats: this.calls.stats, servers: this.pool, maxFallbacks: this.meta.maxFallbacks });
    this.optimization = services.optimization?.(this);
    this.local = localToolContext(this);
    // The ports every session gets, built once here (nothing per session or per call).
    const sessionServices: SessionServices<GatewaySession> = {
      calls: this,
      log: this.log,
      bridge: this.bridge,
      bridgeLanes: this.bridgeLanes,
      servers: this.pool,
      settings: { listTimeoutMs: this.settings.listTimeoutMs, pageSize: this.settings.pageSize, limits: this.limits, meta: this.meta },
      lifecycle: this,
      catalogs: this,
      subscriptions: this.subscriptions,
      toolMetrics: this.toolMetrics,
      learning: this.search,
      ranking: this.ranking,
      local: this.local,
    };
    this.sessions = new SessionRegistry(
      {
        introductions: { servers: this.pool, handshakes: this.handshakes, toolsets: this.toolsets, listTimeoutMs: this.settings.listTimeoutMs, separator: this.settings.separator },
        services: sessionServices,
      },
      { router: this.router, search: this.search, subscriptions: this.subscriptions, releaser: this.releaser, metrics: this.metrics },
    );
  }

  /** Applies a server list (at start and on every config change); catalogs follow. */
  applyServers(servers: ServerConfig[]): Promise<void> {
    return this.configured.apply(servers);
  }

  /** Which tools of a server are visible, until the gateway stops (see configured-servers.ts); false: unknown server. */
  setToolSelection(key: string, selection: ToolSelection): Promise<boolean> {
    return this.configured.setToolSelection(key, selection);
  }

  /** Restarts a server's connections; every catalog re-lists it (see configured-servers.ts). False: unknown server. */
  restartServer(key: string): Promise<boolean> {
    return this.configured.restart(key);
  }

  /** Stops the connections no client session needs (see connection-release.ts). */
  releaseUnused(): Promise<void> {
    return this.releaser.releaseUnused();
  }

  /** At boot: starts the servers that must run now and discovers never-seen ones once (see configured-servers.ts). */
  warmUp(preconnect: readonly string[] = [], discoveryDelayMs = 2000): Promise<void> {
    return this.configured.warmUp(preconnect, discoveryDelayMs);
  }

  /** Records one finished tool call: durable in the store (before the client gets the answer) and in Prometheus. */
  recordCall(call: CallRecord): void {
    this.calls.recordCall(call);
    this.activity.publishCall(call);
  }

  catalogFor(profile: CapabilityProfile): Catalog {
    let catalog = this.catalogs.get(profile.key);
    if (!catalog) {
      catalog = new Catalog(this.pool, profile, { separator: this.settings.separator, budget: this.settings.nameBudget }, { repository: this.store?.catalog, lazy: this.settings.lazy, overlay: this.descriptions, pins: this.pins });
      const owner = catalog;
      catalog.on('changed', ({ server, kinds }) => {
        this.router.queueListChanged(owner, server, kinds);
        this.listChanges.publish({ profileKey: owner.profile.key, server, kinds });
      });
      this.catalogs.set(profile.key, catalog);
    }
    return catalog;
  }

  /** Description overrides or promotions changed: every catalog re-applies them; clients hear list_changed. */
  descriptionsChanged(servers?: readonly string[]): void {
    for (const catalog of this.catalogs.values()) catalog.reapplyOverlay(servers);
  }

  /**
   * Opens a session for a view. A per-server view mirrors that server's capabilities and
   * instructions: live when it is up, else as it answered at its last connection; only a server
   * never seen is started for it, waited for at most listTimeoutMs (see handshakes.ts).
   */
  createSession(view: View, clientCapabilities?: ClientCapabilities, kind: SessionKind = {}): Promise<GatewaySession> {
    return this.sessions.open(view, clientCapabilities, kind);
  }

  /**
   * Called when a session's transport closes: its subscriptions are released, and when it was the
   * last session of its capability profile, that profile's downstream connections are stopped too.
   */
  endSession(session: GatewaySession): void {
    this.sessions.end(session);
  }

  /** One session's own tool list changed (it equipped a toolset): only it hears list_changed. */
  sessionToolsChanged(session: GatewaySession): void {
    this.router.sessionToolsChanged(session);
  }

  /** Every configured server: its state, why it is not serving, its connections (see server-status.ts). */
  serverStatus(): ServerStatus[] {
    return serverStatuses(this.pool, this.catalogs.get(BARE_PROFILE.key));
  }

  /** Servers that are configured but not serving because they failed (a server not started yet is not down). */
  downServers(): Array<{ key: string; state: string; error: string | null }> {
    return downServers(this.serverStatus());
  }

  /** A session set its log level (see log-level-fanout.ts: one client's setLevel never changes what another hears). */
  fanOutLogLevel(session: GatewaySession, level: LoggingLevel): Promise<void> {
    return this.logLevels.sessionSet(session, level);
  }

  async rootsChanged(session: GatewaySession): Promise<void> {
    for (const key of this.pool.keys()) {
      if (!viewIncludes(session.view, key)) continue;
      await this.pool.connection(key, session.profile)?.notify('notifications/roots/list_changed');
    }
  }

  async close(): Promise<void> {
    this.router.close();
    this.bridge.close();
    this.bridgeLanes.close();
    this.calls.close();
    await this.sessions.closeAll();
    await Promise.all([this.releaser.close(), this.pool.close()]);
  }
}

/** The local tools' context: the gateway's services they use, nothing else. */
function localToolContext(gateway: Gateway): LocalToolContext {
  const store = gateway.store;
  return {
    catalogs: gateway,
    servers: gateway.pool,
    ranking: gateway.ranking,
    search: gateway.search,
    meta: gateway.meta,
    toolsets: gateway.toolsets,
    history: store && { metrics: store.metrics, reset: (filter) => gateway.calls.reset(filter) },
    optimization: gateway.optimization,
  };
}
