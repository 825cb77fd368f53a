// Owns when downstream connections stop: a profile's connections when its last session ends, an
// idle session's own connections (isolatedIdleMs), connections only 2026-07-28 clients used once no
// such request came for isolatedIdleMs, shared connections no session uses, and the
// servers started only for a listing of the gateway's own (discovery, a reload). Pinned servers
// (lazy: false, preconnect) keep their shared connection, and so do the servers an open 2026-07-28
// listen stream listens to (listen-holds.ts). Every stop is tracked so close() can wait.
import type { Logger } from 'pino';
import type { Catalog } from '../catalog/catalog.js';
import type { Connection } from '../servers/connection.js';
import type { ServerPool } from '../servers/pool.js';
import { BARE_PROFILE } from '../servers/profile.js';
import type { GatewaySession } from './session.js';
import type { ResourceSubscriber, SubscriptionRegistry } from './subscriptions.js';
import type { ListenHolds } from './listen-holds.js';

/**
 * The two kinds of a whole profile's release: what each does with the profile's listings, and what
 * it logs. `sessionEnded`: its last 2025 session ended; the catalog goes too (unless servers stay
 * up on it). `unused`: after a listing of the gateway's own (discovery at boot, a reload), no client
 * session used these lately; the listings stay in memory, only the servers stop.
 */
const PROFILE_RELEASES = {
  sessionEnded: { keepCatalog: false, message: 'last session of a capability profile ended; its connections stopped' },
  unused: { keepCatalog: true, message: 'connections no client session used lately stopped (started for a listing of the gateway\'s own)' },
} as const;

export interface ReleaseContext {
  pool: ServerPool;
  sessions: () => Iterable<GatewaySession>;
  catalogs: Map<string, Catalog>;
  subscriptions: SubscriptionRegistry<ResourceSubscriber>;
  /** Servers whose shared connection stays up without sessions. */
  pinned: ReadonlySet<string>;
  /** Servers open listen streams depend on: kept like pinned ones while the streams are open. */
  listenHolds?: ListenHolds;
  /** A session's own connections stop after this long without activity (0: only when it ends). */
  isolatedIdleMs: number;
  log: Logger;
  /** Owners that are not sessions but keep their connections (a bridged call's handle, mrtr-bridge.ts). */
  keepsOwner?: (owner: string) => boolean;
  /** Called on each idle round with its cutoff (bridged calls' spare connections go then, bridge-lanes.ts). */
  onIdleRound?: (cutoff: number) => void;
}

export class ConnectionReleaser {
  /** Stops in progress; close() waits for them. */
  private readonly releasing = new Set<Promise<unknown>>();
  private readonly idleTimer: NodeJS.Timeout | undefined;
  /** When a 2026-07-28 request (a session of one request) last ended, per capability profile. */
  private readonly modernUse = new Map<string, number>();

  constructor(private readonly context: ReleaseContext) {
    const idleMs = context.isolatedIdleMs;
    if (idleMs > 0) {
      this.idleTimer = setInterval(() => this.releaseIdleOwned(), Math.max(250, Math.min(60_000, Math.floor(idleMs / 2))));
      this.idleTimer.unref();
    }
  }

  /**
   * Stops the connections no client session needs: every capability profile without a session
   * (servers started for a listing of the gateway's own: discovery, the budget check, a reload),
   * except servers pinned at boot. Connections a session uses are left alone.
   */
  async releaseUnused(): Promise<void> {
    const { pool } = this.context;
    const kept = this.context.keepsOwner ?? (() => false);
    const profiles = new Set(pool.connections().filter((c) => c.profile.owner === undefined || !kept(c.profile.owner)).map((c) => c.profile.key));
    const used = new Set([...this.context.sessions()].filter((s) => holdsConnections(s)).map((s) => s.profile.key));
    // Profiles 2026-07-28 clients used lately are in use too (their sessions last one request).
    const recent = Date.now() - this.context.isolatedIdleMs;
    for (const [profileKey, lastUsed] of this.modernUse) if (lastUsed > recent) used.add(profileKey);
    await Promise.all([...profiles].filter((key) => !used.has(key)).map((key) => this.track(this.releaseProfile(key, 'unused'))));
  }

  /**
   * A session ended. A 2025 session that was the last of its capability profile takes that
   * profile's connections with it (and its catalog, unless servers are pinned on it); shared
   * connections no client uses go with the last session too. A 2026-07-28 session (a request's, or
   * a stdio probe the client fell back from to initialize) leaves them up, since its client is
   * still there: they stop once no such session used their profile for isolatedIdleMs
   * (releaseIdleModern).
   */
  sessionEnded(session: GatewaySession): void {
    if (session.view.kind === 'management') return; // it holds no downstream connections
    const profileKey = session.profile.key;
    if (session.perRequest || session.era === 'modern') {
      this.modernUse.set(profileKey, Date.now());
      return;
    }
    if (![...this.context.sessions()].some((s) => s.view.kind !== 'management' && s.profile.key === profileKey)) {
      void this.track(this.releaseProfile(profileKey, 'sessionEnded'));
    }
    if (session.profile.owner !== undefined) this.releaseUnusedShared(Date.now());
  }

  /** Waits for every stop in progress and ends the idle timer. */
  async close(): Promise<void> {
    clearInterval(this.idleTimer);
    await Promise.all([...this.releasing]);
  }

  /**
   * Stops the own connections of sessions idle for isolatedIdleMs (no request running, no resource
   * subscription): their processes go, the session and its catalog stay, and the next call starts
   * them again. This bounds the processes that isolation costs to the clients in use.
   */
  private releaseIdleOwned(): void {
    const { pool, subscriptions, log } = this.context;
    const cutoff = Date.now() - this.context.isolatedIdleMs;
    for (const session of this.context.sessions()) {
      const profile = session.profile;
      if (profile.owner === undefined || session.closed || session.lastActive > cutoff || session.handling > 0) continue;
      if (subscriptions.heldBy(session).length > 0) continue;
      const running = pool.connections().filter((c) => c.profile.key === profile.key && c.state !== 'stopped');
      // Never in the middle of a start (a listing would fail and be retried): next round.
      if (running.length === 0 || running.some((c) => c.state === 'connecting')) continue;
      void this.track(pool.releaseProfile(profile.key).then((released) => {
        if (released.length) log.info({ session: session.id, connections: released.length }, 'session idle; its own connections stopped until it is used again');
      }));
    }
    this.noteModernConnections();
    this.releaseIdleModern(cutoff);
    this.releaseUnusedShared(cutoff);
    this.context.onIdleRound?.(cutoff);
  }

  /** A 2026-07-28 stdio connection's requests count as its profile's use, like those of HTTP clients. */
  private noteModernConnections(): void {
    for (const session of this.context.sessions()) {
      if (session.era !== 'modern' || session.perRequest || session.view.kind === 'management') continue;
      const key = session.profile.key;
      this.modernUse.set(key, Math.max(this.modernUse.get(key) ?? 0, session.lastActive));
    }
  }

  /**
   * The connections of a profile that only 2026-07-28 requests used stop when none came for
   * isolatedIdleMs, as a 2025 session's go when it idles out: unless a session holds the profile
   * (a request running, a 2025 session) or a listen stream listens to them. Pinned servers keep their shared connection; the next request starts the rest.
   */
  private releaseIdleModern(cutoff: number): void {
    const { pool, subscriptions, log } = this.context;
    const inUse = new Set([...this.context.sessions()].filter((s) => holdsConnections(s)).map((s) => s.profile.key));
    for (const [profileKey, lastUsed] of this.modernUse) {
      if (lastUsed > cutoff || inUse.has(profileKey)) continue;
      const connections = pool.connections().filter((c) => c.profile.key === profileKey && c.state !== 'stopped');
      if (connections.some((c) => c.state === 'connecting')) continue;
      const kept = this.kept(profileKey);
      const listened = connections.filter((c) => kept.has(c.key) || subscriptions.holds(c));
      // A listen stream holds some of them: the rest go now, and the profile is looked at again
      // after the stream has closed.
      if (listened.length === 0) this.modernUse.delete(profileKey);
      for (const connection of listened) kept.add(connection.key);
      if (connections.length === listened.length) continue;
      void this.track(pool.releaseProfile(profileKey, kept).then((released) => {
        for (const connection of released) subscriptions.dropConnection(connection);
        if (released.length) log.info({ profile: profileKey, connections: released.length }, 'connections only 2026-07-28 clients used are idle; stopped until the next request');
      }));
    }
  }

  /**
   * Shared connections that no client session uses (started at boot to check the tool budget, or by
   * the admin API) are stopped too, unless pinned (lazy: false, preconnect) or a management request
   * is running; the next use starts them again.
   */
  private releaseUnusedShared(cutoff: number): void {
    const { pool, subscriptions, log } = this.context;
    const pinned = this.kept(BARE_PROFILE.key);
    const sessions = [...this.context.sessions()];
    if (sessions.some((s) => s.view.kind === 'management' ? s.handling > 0 : holdsConnections(s) && (s.clientCapabilities === undefined || s.profile.key === BARE_PROFILE.key))) return;
    if ((this.modernUse.get(BARE_PROFILE.key) ?? 0) > cutoff) return; // 2026-07-28 clients use them
    const shared = pool.connections().filter((c) => c.profile.key === BARE_PROFILE.key && !pinned.has(c.key));
    // Only connections up for a while and done starting: one being started or listed is left alone.
    const settled = (c: Connection) => c.state === 'connected' && (c.connectedAt?.getTime() ?? Infinity) <= cutoff;
    if (shared.length === 0 || !shared.every((c) => settled(c) || c.state === 'configured' || c.state === 'stopped')) return;
    void this.track(pool.releaseProfile(BARE_PROFILE.key, pinned).then((released) => {
      for (const connection of released) subscriptions.dropConnection(connection);
      if (released.length) log.info({ connections: released.length }, 'shared connections no session uses stopped');
    }));
  }

  /** Stops a profile's connections (except those kept), as the kind of release says (PROFILE_RELEASES). */
  private async releaseProfile(profileKey: string, kind: keyof typeof PROFILE_RELEASES): Promise<void> {
    const { pool, subscriptions, log } = this.context;
    const { keepCatalog, message } = PROFILE_RELEASES[kind];
    const pinned = this.kept(profileKey);
    if (pinned.size === 0 && !keepCatalog) this.context.catalogs.delete(profileKey);
    const released = await pool.releaseProfile(profileKey, pinned);
    for (const connection of released) subscriptions.dropConnection(connection);
    if (released.length) log.info({ profile: profileKey, connections: released.length }, message);
  }

  /** The servers of a profile that stay up whoever uses them: pinned ones (bare profile) and those listen streams hold. */
  private kept(profileKey: string): Set<string> {
    const kept = new Set(profileKey === BARE_PROFILE.key ? this.context.pinned : []);
    for (const key of this.context.listenHolds?.held(profileKey, this.context.pool.keys()) ?? []) kept.add(key);
    return kept;
  }

  private track(release: Promise<unknown>): Promise<void> {
    const tracked: Promise<void> = release
      .then(() => undefined, (error: Error) => this.context.log.warn({ err: error.message }, 'stopping downstream connections failed'))
      .finally(() => this.releasing.delete(tracked));
    this.releasing.add(tracked);
    return tracked;
  }
}

/**
 * Whether a session keeps its profile's connections up: a 2025 session for its whole life; a
 * 2026-07-28 stdio connection (one session for its life, but no session in the protocol's sense)
 * only while it answers a request, else its use counts like an HTTP client's requests. Management
 * sessions hold no downstream connections.
 */
function holdsConnections(session: GatewaySession): boolean {
  if (session.view.kind === 'management') return false;
  return session.era !== 'modern' || session.perRequest || session.handling > 0;
}
