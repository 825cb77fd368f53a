// Owns the resource subscriptions of 2026-07-28 listen streams, for both faces: a
// `subscriptions/listen` request whose filter names `resourceSubscriptions` holds a subscription on
// the connection of each URI's server (the first holder subscribes downstream, like a 2025 session's
// resources/subscribe) for as long as its stream is open, and holds that connection alive
// (listen-holds.ts). The downstream's notifications/resources/updated is handed to the face's
// delivery (HTTP: the endpoint's listen bus; stdio: the connection's modern instance), and the SDK's
// listen router gives it to the streams that asked for that URI.
import type { Connection } from '../servers/connection.js';
import type { ResourceSubscriber, SubscriptionRegistry } from './subscriptions.js';
import type { ListenHolds } from './listen-holds.js';
import type { GatewaySession } from './session.js';

interface Logger {
  debug(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
}

export const LISTEN_METHOD = 'subscriptions/listen';

/** The filter of a listen request (undefined for any other message). */
function listenFilter(message: unknown): Record<string, unknown> | undefined {
  if (message === null || typeof message !== 'object' || Array.isArray(message)) return undefined;
  const { method, params } = message as { method?: unknown; params?: { notifications?: unknown } };
  if (method !== LISTEN_METHOD) return undefined;
  const filter = params?.notifications;
  return filter !== null && typeof filter === 'object' && !Array.isArray(filter) ? (filter as Record<string, unknown>) : {};
}

/** The URIs a listen request asks updates for (none for other requests or a filter without them). */
export function listenedResources(message: unknown): string[] {
  const uris = listenFilter(message)?.resourceSubscriptions;
  return Array.isArray(uris) ? [...new Set(uris.filter((uri): uri is string => typeof uri === 'string'))] : [];
}

/** Whether a listen request asks for any list change (tools, prompts or resources). */
export function listensForListChanges(message: unknown): boolean {
  const filter = listenFilter(message);
  return filter !== undefined && (filter.toolsListChanged === true || filter.promptsListChanged === true || filter.resourcesListChanged === true);
}

/** What a listen stream's subscriptions need from the gateway. */
export interface ListenContext {
  subscriptions: SubscriptionRegistry<ResourceSubscriber>;
  holds: ListenHolds;
  log: Logger;
  /** A session of one request for the stream's view, to find the server of each URI; ended after. */
  openSession(): Promise<GatewaySession>;
  endSession(session: GatewaySession): void;
}

/**
 * One per delivery target (an HTTP endpoint handler, a stdio connection): it is the registry's
 * subscriber for the URIs its streams listen to, and counts its streams per (connection, URI) so
 * that one downstream update is delivered once.
 */
export class ListenResourceSubscriber implements ResourceSubscriber {
  private readonly holders = new Map<Connection, Map<string, number>>();

  constructor(
    private readonly deliver: (params: Record<string, unknown> & { uri: string }) => void,
    private readonly context: ListenContext,
  ) {}

  notifyResourceUpdated(params: Record<string, unknown>): void {
    if (typeof params.uri === 'string') this.deliver(params as Record<string, unknown> & { uri: string });
  }

  /**
   * A stream listens to `uris` until `until` aborts: each URI on the connection of the server that
   * serves it in the stream's view (a URI no server serves there, or one the scope forbids, is left out).
   */
  async holdAll(uris: string[], until: AbortSignal): Promise<void> {
    const session = await this.context.openSession();
    try {
      for (const uri of uris) {
        try {
          await this.hold(await session.resourceConnection(uri), uri, until);
        } catch (error) {
          this.context.log.debug({ uri, err: (error as Error).message }, 'a listen stream asked for updates of a resource no server here serves');
        }
      }
    } finally {
      this.context.endSession(session);
    }
  }

  /**
   * A stream listens to `uri` on `connection` until `until` aborts; the connection is held alive
   * meanwhile. Resolves once the downstream subscription is made (a failure is logged: the stream
   * stays open and hears nothing for that URI).
   */
  async hold(connection: Connection, uri: string, until: AbortSignal): Promise<void> {
    if (until.aborted) return;
    const { subscriptions, holds, log } = this.context;
    holds.hold(connection.profile.key, (key) => key === connection.key, until);
    let uris = this.holders.get(connection);
    if (!uris) this.holders.set(connection, (uris = new Map()));
    const streams = uris.get(uri) ?? 0;
    uris.set(uri, streams + 1);
    until.addEventListener('abort', () => this.release(connection, uri), { once: true });
    if (streams === 0 && subscriptions.add(connection, uri, this)) {
      await connection.request('resources/subscribe', { uri }).catch((error: Error) => log.warn({ server: connection.key, uri, err: error.message }, 'resources/subscribe for a listen stream failed'));
    }
  }

  private release(connection: Connection, uri: string): void {
    const uris = this.holders.get(connection);
    const streams = uris?.get(uri) ?? 0;
    if (!uris || streams === 0) return;
    if (streams > 1) return void uris.set(uri, streams - 1);
    uris.delete(uri);
    if (uris.size === 0) this.holders.delete(connection);
    if (this.context.subscriptions.remove(connection, uri, this)) void connection.request('resources/unsubscribe', { uri }).catch(() => undefined);
  }
}
