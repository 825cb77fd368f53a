// Owns the listen streams of a 2026-07-28 stdio connection as the gateway sees them. The SDK's
// stdio entry serves `subscriptions/listen` itself (acknowledgement, filters, subscription ids) and
// routes the modern instance's change notifications onto the open streams, but the listen request
// never reaches the instance. So every inbound message passes through here first: a listen request
// that names `resourceSubscriptions` subscribes downstream to those URIs (listen-resources.ts, shared
// with the HTTP face) before the SDK acknowledges it, and a listen request for list changes holds
// the view's servers (listen-holds.ts); `notifications/cancelled` for the stream, or the connection
// closing, lets them go.
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import type { GatewaySession } from './session.js';
import type { SubscriptionRegistry, ResourceSubscriber } from './subscriptions.js';
import type { ListenHolds } from './listen-holds.js';
import type { Logger } from '../logging/logger.js';
import type { View } from './view.js';
import { MODERN_REVISIONS } from './era.js';
import { ListenResourceSubscriber, listenedResources, listensForListChanges, LISTEN_METHOD } from './listen-resources.js';

type Id = string | number;

/** Whether a message claims a 2026-07-28 revision in its envelope (the SDK serves listen only then). */
function claimsModernRevision(message: { params?: unknown }): boolean {
  const meta = (message.params as { _meta?: Record<string, unknown> } | undefined)?._meta;
  const version = meta?.['io.modelcontextprotocol/protocolVersion'];
  return typeof version === 'string' && MODERN_REVISIONS.includes(version);
}

/** What the listen streams need of the gateway (a narrow port: only the faces import the Gateway). */
export interface ListenStreamHost {
  readonly subscriptions: SubscriptionRegistry<ResourceSubscriber>;
  readonly listenHolds: ListenHolds;
  readonly log: Logger;
  createSession(view: View, clientCapabilities: undefined, kind: { era: 'modern'; perRequest: true }): Promise<GatewaySession>;
  endSession(session: GatewaySession): void;
}

export class StdioListenStreams {
  /** The connection's modern instance: the SDK routes what it sends onto the open streams. */
  private modern: GatewaySession | undefined;
  /** Open streams by their listen request's id: aborting ends what they hold. */
  private readonly streams = new Map<Id, AbortController>();
  private readonly resources: ListenResourceSubscriber;

  constructor(
    private readonly gateway: ListenStreamHost,
    private readonly view: View,
  ) {
    this.resources = new ListenResourceSubscriber(
      (params) => void this.modern?.server.notification({ method: 'notifications/resources/updated', params }).catch(() => undefined),
      {
        subscriptions: gateway.subscriptions,
        holds: gateway.listenHolds,
        log: gateway.log,
        openSession: () => gateway.createSession(view, undefined, { era: 'modern', perRequest: true }),
        endSession: (session) => gateway.endSession(session),
      },
    );
  }

  /** The SDK made the connection's 2026-07-28 instance (a probe's instance included). */
  modernSession(session: GatewaySession): void {
    this.modern = session;
  }

  /**
   * Wraps the SDK's message handler: each message is observed first. While a listen request's
   * subscriptions are being made, it and every message after it wait, in order; otherwise a
   * message goes straight on.
   */
  before(deliver: ((message: JSONRPCMessage) => void) | undefined): (message: JSONRPCMessage) => void {
    let waiting: Promise<void> | undefined;
    const settled = (holding: Promise<void> | undefined) => holding?.catch((error: Error) => this.gateway.log.warn({ err: error.message }, 'a listen stream could not subscribe to what it listens to'));
    const queue = (after: Promise<void>) => {
      waiting = after;
      void after.then(() => {
        if (waiting === after) waiting = undefined;
      });
    };
    return (message) => {
      if (waiting) return queue(waiting.then(() => settled(this.observe(message))).then(() => deliver?.(message)));
      const holding = this.observe(message);
      if (!holding) return deliver?.(message);
      queue(settled(holding)!.then(() => deliver?.(message)));
    };
  }

  /**
   * Looks at one inbound message before the SDK does. For a listen request that asks for resource
   * updates it returns a promise that settles once they are held (so an update right after the
   * acknowledgement is not missed); for any other message, nothing.
   */
  observe(message: JSONRPCMessage): Promise<void> | undefined {
    if (!('method' in message)) return;
    if (message.method === 'notifications/cancelled') {
      const id = (message.params as { requestId?: Id } | undefined)?.requestId;
      if (id !== undefined) this.end(id);
      return;
    }
    if (message.method !== LISTEN_METHOD || !('id' in message) || !claimsModernRevision(message)) return;
    const listensForChanges = listensForListChanges(message);
    const uris = listenedResources(message);
    if (!listensForChanges && uris.length === 0) return;
    this.end(message.id);
    const stream = new AbortController();
    this.streams.set(message.id, stream);
    if (listensForChanges) this.gateway.listenHolds.holdView(this.view, undefined, stream.signal, this.modern?.profile.key);
    return uris.length > 0 ? this.resources.holdAll(uris, stream.signal) : undefined;
  }

  private end(id: Id): void {
    const stream = this.streams.get(id);
    if (!stream) return;
    this.streams.delete(id);
    stream.abort();
  }

  /** The connection closed: every stream ends. */
  close(): void {
    for (const id of [...this.streams.keys()]) this.end(id);
  }
}
