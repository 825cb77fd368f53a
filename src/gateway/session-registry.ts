// Owns the set of live client sessions: opening one (its initialize answer from
// session-introduction.ts, its services the ports the Gateway built once), ending one, how many are
// open, finding one by id, and closing them all at shutdown. What must follow a session's end elsewhere (routing state,
// searches, resource subscriptions, connection release, the open-sessions gauge) is injected as narrow
// ports: this module never sees the Gateway. Nothing here runs per forwarded call.
import { randomUUID } from 'node:crypto';
import type { ClientCapabilities } from '@modelcontextprotocol/server';
import type { MetricsRegistry } from '../metrics/prometheus.js';
import type { ConnectionReleaser } from './connection-release.js';
import type { InboundEra } from './era.js';
import type { SessionServices } from './ports.js';
import { GatewaySession } from './session.js';
import { introduceSession, type IntroductionContext } from './session-introduction.js';
import type { SessionRouter } from './session-router.js';
import type { ResourceSubscriber, SubscriptionRegistry } from './subscriptions.js';
import type { ToolSearch } from './tool-search.js';
import type { View } from './view.js';

/** How a session is opened besides its view: its protocol era, and whether it lasts one HTTP request. */
export interface SessionKind {
  era?: InboundEra;
  perRequest?: boolean;
}

/** What a new session is made from: built once by the Gateway, shared by every session. */
export interface SessionOpening {
  /** What its initialize answer is made from. */
  readonly introductions: IntroductionContext;
  /** The ports every session gets. */
  readonly services: SessionServices<GatewaySession>;
}

/** What must happen elsewhere when a session ends, each a narrow port. */
export interface SessionEndPorts {
  /** Drops what is still queued for it (debounced list_changed). */
  readonly router: Pick<SessionRouter, 'forget'>;
  /** Drops its searches and its learning quota. */
  readonly search: Pick<ToolSearch, 'forgetSession'>;
  /** Its resource subscriptions: a URI it was the last subscriber of is unsubscribed downstream. */
  readonly subscriptions: Pick<SubscriptionRegistry<ResourceSubscriber>, 'heldBy' | 'remove'>;
  /** Stops the connections no session needs any more (or notes a 2026-07-28 session's use of them). */
  readonly releaser: Pick<ConnectionReleaser, 'sessionEnded'>;
  /** The open-sessions gauge, set after every open and end (undefined: no Prometheus). */
  readonly metrics?: Pick<MetricsRegistry, 'setOpenSessions'>;
}

export class SessionRegistry implements Iterable<GatewaySession> {
  /** Open sessions by id. */
  private readonly live = new Map<string, GatewaySession>();

  constructor(
    private readonly opening: SessionOpening,
    private readonly onEnd: SessionEndPorts,
  ) {}

  [Symbol.iterator](): Iterator<GatewaySession> {
    return this.live.values();
  }

  /** The open session with this id (undefined once it ended). */
  byId(id: string): GatewaySession | undefined {
    return this.live.get(id);
  }

  /**
   * Opens a session for a view. Throws (naming what is known) for a view of an unknown server or
   * toolset; a per-server view may wait for a server never seen (see session-introduction.ts).
   */
  async open(view: View, clientCapabilities: ClientCapabilities | undefined, kind: SessionKind): Promise<GatewaySession> {
    const id = randomUUID();
    const introduction = await introduceSession(view, clientCapabilities, id, this.opening.introductions);
    const session = new GatewaySession(this.opening.services, { view, ...introduction, id, ...kind });
    this.live.set(id, session);
    this.onEnd.metrics?.setOpenSessions(this.live.size);
    return session;
  }

  /**
   * Ends a session (its transport closed, or its 2026-07-28 exchange is over); a session already
   * ended is ignored. Whether its connections stop with it is the releaser's call
   * (connection-release.ts).
   */
  end(session: GatewaySession): void {
    if (this.live.get(session.id) !== session) return;
    this.live.delete(session.id);
    const ports = this.onEnd;
    ports.metrics?.setOpenSessions(this.live.size);
    ports.router.forget(session);
    ports.search.forgetSession(session.id);
    for (const { connection, uri } of ports.subscriptions.heldBy(session)) {
      if (!ports.subscriptions.remove(connection, uri, session)) continue;
      // Best effort: the server may be gone already, and then it holds no subscription either.
      void connection.request('resources/unsubscribe', { uri }).catch(() => undefined);
    }
    void session.close();
    ports.releaser.sessionEnded(session);
  }

  /** Closes every open session (gateway shutdown) and forgets them. */
  async closeAll(): Promise<void> {
    await Promise.all([...this.live.values()].map((session) => session.close()));
    this.live.clear();
  }
}
