// Owns the traffic between servers and client sessions that is not a plain request: server
// notifications routed up (list_changed re-reads the catalog; log messages and resource updates go
// to the sessions that see that server), list_changed to clients debounced into one notification
// per kind, and reverse requests (sampling, elicitation, roots) to the client that caused them.
import { ProtocolError } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { Catalog } from '../catalog/catalog.js';
import type { Logger } from '../logging/logger.js';
import type { Connection, ListKind, RawNotification } from '../servers/connection.js';
import { REVERSE_METHOD_CAPABILITY, type CapabilityProfile } from '../servers/profile.js';
import type { GatewaySession } from './session.js';
import type { SubscriptionRegistry } from './subscriptions.js';
import { viewIncludes } from './view.js';
import { correlationOf } from '../logging/correlation.js';
import { requestLog } from '../logging/request-log.js';

const ANY_RESULT = z.any();

const LIST_CHANGED: Record<ListKind, string> = {
  tools: 'notifications/tools/list_changed',
  prompts: 'notifications/prompts/list_changed',
  resources: 'notifications/resources/list_changed',
  resourceTemplates: 'notifications/resources/list_changed',
};

export interface RouterHost {
  sessions(): Iterable<GatewaySession>;
  catalog(profileKey: string): Catalog | undefined;
  readonly subscriptions: SubscriptionRegistry<GatewaySession>;
  readonly listChangedDebounceMs: number;
  readonly log: Logger;
}

export class SessionRouter {
  private readonly pendingListChanged = new Map<GatewaySession, Set<string>>();
  private listChangedTimer: NodeJS.Timeout | undefined;

  constructor(private readonly host: RouterHost) {}

  sessionsOf(profile: CapabilityProfile, serverKey: string): GatewaySession[] {
    return [...this.host.sessions()].filter((s) => !s.closed && s.profile.key === profile.key && viewIncludes(s.view, serverKey));
  }

  onServerNotification(connection: Connection, notification: RawNotification): void {
    const params = notification.params ?? {};
    switch (notification.method) {
      case 'notifications/tools/list_changed':
        return void this.host.catalog(connection.profile.key)?.refresh(connection.key, ['tools']);
      case 'notifications/prompts/list_changed':
        return void this.host.catalog(connection.profile.key)?.refresh(connection.key, ['prompts']);
      case 'notifications/resources/list_changed':
        return void this.host.catalog(connection.profile.key)?.refresh(connection.key, ['resources', 'resourceTemplates']);
      case 'notifications/resources/updated': {
        for (const session of this.host.subscriptions.subscribers(connection, params.uri as string)) {
          void session.server.notification({ method: 'notifications/resources/updated', params }).catch(() => undefined);
        }
        return;
      }
      case 'notifications/message': {
        for (const session of this.sessionsOf(connection.profile, connection.key)) {
          if (!session.wantsLog(params.level as string)) continue;
          const tagged = session.view.kind === 'all' || session.view.kind === 'meta' || session.view.kind === 'auto' ? { ...params, logger: params.logger ? `${connection.key}/${params.logger}` : connection.key } : params;
          void session.server.notification({ method: 'notifications/message', params: tagged }).catch(() => undefined);
        }
        return;
      }
      default:
        this.host.log.debug({ server: connection.key, method: notification.method }, 'notification not forwarded');
    }
  }

  queueListChanged(catalog: Catalog, server: string, kinds: ListKind[]): void {
    this.notifyLater(this.sessionsOf(catalog.profile, server), kinds.map((k) => LIST_CHANGED[k]));
  }

  /** The equipped toolset changed: every toolset-mode session gets one tools/list_changed. */
  toolsetEquipChanged(): void {
    this.notifyLater([...this.host.sessions()].filter((s) => s.view.kind === 'toolset'), [LIST_CHANGED.tools]);
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
   * A server asked its client for something (sampling, elicitation, roots). It goes to the session
   * whose request is running on that connection (newest first), else to the most recently active
   * session of the same profile; only to a client that declared the capability.
   */
  async reverseRequest(connection: Connection, request: { method: string; params?: Record<string, unknown> }, signal: AbortSignal): Promise<unknown> {
    const capability = REVERSE_METHOD_CAPABILITY[request.method];
    if (!capability) throw new ProtocolError(-32601, `Method not found: ${request.method}`);
    const able = this.sessionsOf(connection.profile, connection.key).filter((s) => s.clientCapabilities?.[capability]);
    const busy = able
      .flatMap((s) => (s.inflight.get(connection) ?? []).map((ctx, order) => ({ ctx, order, active: s.lastActive })))
      .sort((a, b) => b.active - a.active || b.order - a.order)[0];
    // The request that caused it lends its correlation id (the same as in its call row and request log lines).
    const correlationId = busy ? correlationOf(busy.ctx) : undefined;
    this.host.log.info({ server: connection.key, method: request.method, routed: busy ? 'related' : 'recent', ...(correlationId && { correlationId }) }, 'reverse request');
    if (requestLog) requestLog.reverse({ server: connection.key, method: request.method, ...(correlationId && { correlationId }) });
    if (busy) return busy.ctx.mcpReq.send({ method: request.method, params: request.params } as never, ANY_RESULT, { signal });
    const recent = able.sort((a, b) => b.lastActive - a.lastActive)[0];
    if (!recent) {
      throw new ProtocolError(-32601, `No connected client can answer ${request.method} for server "${connection.key}" (none declared the "${capability}" capability).`);
    }
    return recent.server.request({ method: request.method, params: request.params } as never, ANY_RESULT, { signal });
  }

  /** A session ended: nothing more is queued for it. */
  forget(session: GatewaySession): void {
    this.pendingListChanged.delete(session);
  }

  close(): void {
    if (this.listChangedTimer) clearTimeout(this.listChangedTimer);
  }
}
