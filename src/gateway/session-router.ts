// Owns the traffic between servers and client sessions that is not a plain request: server
// notifications routed up (list_changed re-reads the catalog; log messages and resource updates go
// to the sessions that see that server), list_changed to clients debounced into one notification
// per kind, and reverse requests (sampling, elicitation, roots) to the client that caused them.
// Isolation: a connection whose profile has an owner belongs to that one session, so its reverse
// requests and log messages go to that session only; a shared connection never carries a reverse
// request (we declared no capability for one) and its log messages go by their cause (the session
// whose requests were running when it arrived; nobody when several were; every session that asked
// when none was: log-audience.ts). Nothing is routed by recency.
import { ProtocolError } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { Catalog } from '../catalog/catalog.js';
import type { Logger } from '../logging/logger.js';
import type { Connection, ListKind, RawNotification } from '../servers/connection.js';
import { REVERSE_METHOD_CAPABILITY, type CapabilityProfile } from '../servers/profile.js';
import type { GatewaySession } from './session.js';
import type { ResourceSubscriber, SubscriptionRegistry } from './subscriptions.js';
import { viewIncludes } from './view.js';
import { correlationOf } from '../logging/correlation.js';
import { requestLog } from '../logging/request-log.js';
import type { ActivitySink } from '../metrics/activity.js';
import type { MrtrBridge } from './mrtr-bridge.js';
import { logAudience, type LogAudience } from './log-audience.js';

const ANY_RESULT = z.any();

const LIST_CHANGED: Record<ListKind, string> = {
  tools: 'notifications/tools/list_changed',
  prompts: 'notifications/prompts/list_changed',
  resources: 'notifications/resources/list_changed',
  resourceTemplates: 'notifications/resources/list_changed',
};

export interface RouterHost {
  sessions(): Iterable<GatewaySession>;
  /** The open session with this id. */
  session(id: string): GatewaySession | undefined;
  catalog(profileKey: string): Catalog | undefined;
  readonly subscriptions: SubscriptionRegistry<ResourceSubscriber>;
  readonly listChangedDebounceMs: number;
  readonly log: Logger;
  /** Live views hear of each server request (with the correlation id of the call that caused it). */
  readonly activity?: ActivitySink;
  /** A 2026-07-28 client's calls run on connections owned by a bridge handle: their requests go there. */
  readonly bridge?: MrtrBridge;
}

export class SessionRouter {
  private readonly pendingListChanged = new Map<GatewaySession, Set<string>>();
  private listChangedTimer: NodeJS.Timeout | undefined;

  constructor(private readonly host: RouterHost) {}

  sessionsOf(profile: CapabilityProfile, serverKey: string): GatewaySession[] {
    return [...this.host.sessions()].filter((s) => !s.closed && s.profile.key === profile.key && viewIncludes(s.view, serverKey));
  }

  /** The session a per-session connection belongs to (undefined for a shared one, or once it ended). */
  ownerOf(connection: Connection): GatewaySession | undefined {
    const owner = connection.profile.owner;
    if (owner === undefined) return undefined;
    const session = this.host.session(owner);
    return session && !session.closed ? session : undefined;
  }

  /** Who hears a server's log message of `level`, given the sessions whose requests were running when it arrived. */
  logListeners(connection: Connection, level: string, callers: readonly string[] | undefined): LogAudience {
    const shared = connection.profile.owner === undefined;
    return logAudience(connection, level, callers, { owner: shared ? undefined : this.ownerOf(connection), sharing: shared ? this.sessionsOf(connection.profile, connection.key) : [] });
  }

  onServerNotification(connection: Connection, notification: RawNotification, callers?: readonly string[]): void {
    const params = notification.params ?? {};
    switch (notification.method) {
      case 'notifications/tools/list_changed':
        return void this.host.catalog(connection.profile.key)?.refresh(connection.key, ['tools']);
      case 'notifications/prompts/list_changed':
        return void this.host.catalog(connection.profile.key)?.refresh(connection.key, ['prompts']);
      case 'notifications/resources/list_changed':
        return void this.host.catalog(connection.profile.key)?.refresh(connection.key, ['resources', 'resourceTemplates']);
      case 'notifications/resources/updated': {
        for (const subscriber of this.host.subscriptions.subscribers(connection, params.uri as string)) subscriber.notifyResourceUpdated(params);
        return;
      }
      case 'notifications/message':
        return this.routeLog(connection, params, callers);
      default:
        this.host.log.debug({ server: connection.key, method: notification.method }, 'notification not forwarded');
    }
  }

  private routeLog(connection: Connection, params: Record<string, unknown>, callers: readonly string[] | undefined): void {
    const audience = this.logListeners(connection, params.level as string, callers);
    if (audience.cause === 'unknown') {
      // Nothing is lost: the operator sees it, no client does.
      this.host.log.info({ server: connection.key, logLevel: params.level, ...(params.logger !== undefined && { logger: params.logger }), data: params.data, callers: audience.callers }, 'server log message while several sessions had calls running on a shared connection: its cause cannot be known, so no client gets it');
      return;
    }
    for (const session of audience.sessions) {
      const tagged = session.view.kind === 'all' || session.view.kind === 'meta' || session.view.kind === 'auto' ? { ...params, logger: params.logger ? `${connection.key}/${params.logger}` : connection.key } : params;
      const message = { method: 'notifications/message' as const, params: tagged };
      // Caused by the session's one request running there: on that request's stream (HTTP), before its answer.
      const running = audience.cause === 'background' ? undefined : session.inflight.get(connection);
      const unrelated = () => session.server.notification(message as never);
      const sent = running?.length === 1 ? running[0]!.mcpReq.notify(message as never).catch(unrelated) : unrelated();
      void sent.catch(() => undefined);
    }
  }

  queueListChanged(catalog: Catalog, server: string, kinds: ListKind[]): void {
    this.notifyLater(this.sessionsOf(catalog.profile, server), kinds.map((k) => LIST_CHANGED[k]));
  }

  /** The gateway's default toolset changed: every toolset-mode session that follows it gets one tools/list_changed. */
  toolsetEquipChanged(): void {
    this.notifyLater([...this.host.sessions()].filter((s) => s.view.kind === 'toolset' && s.followsDefaultToolset), [LIST_CHANGED.tools]);
  }

  /** One session's own tool list changed (it equipped a toolset): only it is told. */
  sessionToolsChanged(session: GatewaySession): void {
    this.notifyLater([session], [LIST_CHANGED.tools]);
  }

  private notifyLater(sessions: GatewaySession[], methods: string[]): void {
    for (const session of sessions) {
      let pending = this.pendingListChanged.get(session);
      if (!pending) this.pendingListChanged.set(session, (pending = new Set()));
      for (const method of methods) pending.add(method);
    }
    this.listChangedTimer ??= setTimeout(() => this.flushListChanged(), this.host.listChangedDebounceMs);
  }

  private flushListChanged(): void {
    this.listChangedTimer = undefined;
    for (const [session, methods] of this.pendingListChanged) {
      for (const method of methods) void session.server.notification({ method }).catch(() => undefined);
    }
    this.pendingListChanged.clear();
  }

  /**
   * A server asked its client for something (sampling, elicitation, roots). Only a per-session
   * connection can: it goes to its session, tied to that session's newest request running on the
   * connection (so an HTTP client gets it on that request's stream), else as a request of its own
   * (roots/list asked at any time). A shared connection declared none of these capabilities: such a
   * request is answered with an error, never passed to a guessed client.
   */
  async reverseRequest(connection: Connection, request: { method: string; params?: Record<string, unknown> }, signal: AbortSignal): Promise<unknown> {
    const capability = REVERSE_METHOD_CAPABILITY[request.method];
    if (!capability) throw new ProtocolError(-32601, `Method not found: ${request.method}`);
    const handle = connection.profile.owner;
    if (handle !== undefined && this.host.bridge?.owns(handle)) {
      this.host.log.info({ server: connection.key, method: request.method, bridged: true }, 'reverse request');
      return this.host.bridge.ask(handle, request, signal);
    }
    if (connection.profile.owner === undefined) {
      this.host.log.warn({ server: connection.key, method: request.method }, 'reverse request on a shared connection refused');
      throw new ProtocolError(-32601, `Server "${connection.key}" sent ${request.method} on a connection shared by clients that declared no "${capability}" capability; it is refused, not passed to a guessed client.`);
    }
    const owner = this.ownerOf(connection);
    if (!owner) throw new ProtocolError(-32603, `The client session that server "${connection.key}" asked with ${request.method} has ended.`);
    if (!owner.clientCapabilities?.[capability]) {
      throw new ProtocolError(-32601, `The client of this connection did not declare the "${capability}" capability, so server "${connection.key}" cannot send it ${request.method}.`);
    }
    const running = owner.inflight.get(connection);
    const cause = running?.[running.length - 1];
    // The request that caused it lends its correlation id (the same as in its call row and request log lines).
    const correlationId = cause ? correlationOf(cause) : undefined;
    this.host.log.info({ server: connection.key, method: request.method, session: owner.id, routed: cause ? 'related' : 'session', ...(correlationId && { correlationId }) }, 'reverse request');
    if (requestLog) requestLog.reverse({ server: connection.key, method: request.method, ...(correlationId && { correlationId }) });
    this.host.activity?.publish({ kind: 'server-request', at: Date.now(), server: connection.key, method: request.method, session: owner.id, ...(correlationId && { correlationId }) });
    if (cause) return cause.mcpReq.send({ method: request.method, params: request.params } as never, ANY_RESULT, { signal });
    return owner.server.request({ method: request.method, params: request.params } as never, ANY_RESULT, { signal });
  }

  /** A session ended: nothing more is queued for it. */
  forget(session: GatewaySession): void {
    this.pendingListChanged.delete(session);
  }

  close(): void {
    if (this.listChangedTimer) clearTimeout(this.listChangedTimer);
  }
}
