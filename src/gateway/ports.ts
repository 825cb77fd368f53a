// Owns the narrow ports the Gateway (the composition root) hands to what runs below it: sessions,
// forwarding, ranking and the local tools (management, toolsets, meta) each name exactly what they
// use here, so none of them imports gateway.ts. The Gateway builds each port object once, at
// construction: nothing here is allocated per forwarded call.
import type { LoggingLevel } from '@modelcontextprotocol/server';
import type { Catalog } from '../catalog/catalog.js';
import type { LimitSettings } from '../config/index.js';
import type { Logger } from '../logging/logger.js';
import type { CallSink } from '../metrics/call-recorder.js';
import type { OptimizationToolHost } from '../optimize/mcp-tools.js';
import type { ServerPool } from '../servers/pool.js';
import type { CapabilityProfile } from '../servers/profile.js';
import type { MetricsFilter, MetricsRepository, ResetResult } from '../store/index.js';
import type { ToolsetService } from '../views/toolsets.js';
import type { MetaSettings } from './gateway-settings.js';
import type { BridgeLanes } from './bridge-lanes.js';
import type { MrtrBridge } from './mrtr-bridge.js';
import type { ToolRanking } from './recommendations.js';
import type { ResourceSubscriber, SubscriptionRegistry } from './subscriptions.js';
import type { ToolMetricsAnnotator } from './tool-metrics.js';
import type { ToolSearch } from './tool-search.js';

export type { CallSink } from '../metrics/call-recorder.js';

/** One catalog per client capability profile, made on first use. */
export interface CatalogRegistry {
  catalogFor(profile: CapabilityProfile): Catalog;
}

/** The configured servers and their connections, as sessions, ranking and local tools read them. */
export type ServerDirectory = Pick<ServerPool, 'keys' | 'has' | 'connection' | 'identities' | 'releaseProfile'>;

/** What the gateway does when a session's own state changes; S is the session type (kept generic: no import of session.ts). */
export interface SessionLifecycle<S> {
  /** The session's transport closed. */
  endSession(session: S): void;
  /** The session's client changed its roots. */
  rootsChanged(session: S): Promise<void>;
  /** The session set its log level. */
  fanOutLogLevel(session: S, level: LoggingLevel): Promise<void>;
  /** The session equipped or unequipped a toolset of its own: only it hears list_changed. */
  sessionToolsChanged(session: S): void;
}

/** What forwarding one request needs besides its session: where the call is recorded, the log, the MRTR bridge. */
export interface ForwardingServices {
  readonly calls: CallSink;
  readonly log: Logger;
  /** Server requests of a 2026-07-28 client's calls, relayed as input_required (mrtr-bridge.ts). */
  readonly bridge: MrtrBridge;
  /** The connections bridged calls run on, warm spares included (bridge-lanes.ts). */
  readonly bridgeLanes: BridgeLanes;
  readonly servers: ServerDirectory;
}

/** Recorded calls as the management tools read and reset them (needs the store). */
export interface CallHistory {
  readonly metrics: MetricsRepository;
  reset(filter: MetricsFilter): ResetResult;
}

/** What the local tools (management, toolsets, meta) act on: a small context, never the Gateway. */
export interface LocalToolContext {
  readonly catalogs: CatalogRegistry;
  readonly servers: ServerDirectory;
  readonly ranking: ToolRanking;
  readonly search: ToolSearch;
  readonly meta: MetaSettings;
  /** Saved and equipped toolsets (undefined: no store). */
  readonly toolsets: ToolsetService | undefined;
  /** Recorded calls (undefined: no store). */
  readonly history: CallHistory | undefined;
  /** The optimization tools, when optimization is enabled. */
  readonly optimization: OptimizationToolHost | undefined;
}

/** The settings a session reads on every request. */
export interface SessionSettings {
  readonly listTimeoutMs: number;
  readonly pageSize: number;
  readonly limits: LimitSettings;
  readonly meta: MetaSettings;
}

/** Everything a client session uses, each a narrow port; S is the session type (see SessionLifecycle). */
export interface SessionServices<S> extends ForwardingServices {
  readonly settings: SessionSettings;
  readonly lifecycle: SessionLifecycle<S>;
  readonly catalogs: CatalogRegistry;
  readonly subscriptions: SubscriptionRegistry<ResourceSubscriber>;
  /** Puts call metrics into listed tools' `_meta` (undefined: includeMetrics off). */
  readonly toolMetrics: ToolMetricsAnnotator | undefined;
  /** Learning from use: a successful call of a tool a search returned. */
  readonly learning: Pick<ToolSearch, 'noteCall'>;
  readonly ranking: ToolRanking;
  readonly local: LocalToolContext;
}
