// Owns the resource subscriptions of 2026-07-28 listen streams on the HTTP face: a
// `subscriptions/listen` request whose filter names `resourceSubscriptions` holds a subscription on
// the connection of each URI's server (the first holder subscribes downstream, like a 2025 session's
// resources/subscribe) for as long as its stream is open; the downstream's
// notifications/resources/updated is published to the endpoint's listen streams, and the SDK's
// listen router delivers it to the streams that asked for that URI.
import type { ServerNotifier } from '@modelcontextprotocol/server';
import type { Connection } from '../servers/connection.js';
import type { ResourceSubscriber, SubscriptionRegistry } from '../gateway/subscriptions.js';
import type { moduleLogger } from '../logging/logger.js';

type Logger = ReturnType<typeof moduleLogger>;

/** The URIs a listen request asks updates for (none for other requests or a filter without them). */
export function listenedResources(body: unknown): string[] {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return [];
  const { method, params } = body as { method?: unknown; params?: { notifications?: { resourceSubscriptions?: unknown } } };
  if (method !== 'subscriptions/listen') return [];
  const uris = params?.notifications?.resourceSubscriptions;
  return Array.isArray(uris) ? [...new Set(uris.filter((uri): uri is string => typeof uri === 'string'))] : [];
}

/**
 * One per endpoint handler: it is the registry's subscriber for the URIs its streams listen to, and
 * counts its streams per (connection, URI) so that one downstream update is published once.
 */
export class ListenResourceSubscriber implements ResourceSubscriber {
  private readonly holders = new Map<Connection, Map<string, number>>();

  constructor(
    private readonly notifier: ServerNotifier,
    private readonly registry: SubscriptionRegistry<ResourceSubscriber>,
    private readonly log: Logger,
  ) {}

  notifyResourceUpdated(params: Record<string, unknown>): void {
    if (typeof params.uri === 'string') this.notifier.resourceUpdated(params.uri);
  }

  /** A stream listens to `uri` on `connection` until `until` aborts. */
  hold(connection: Connection, uri: string, until: AbortSignal): void {
    let uris = this.holders.get(connection);
    if (!uris) this.holders.set(connection, (uris = new Map()));
    const streams = uris.get(uri) ?? 0;
    uris.set(uri, streams + 1);
    if (streams === 0 && this.registry.add(connection, uri, this)) {
      void connection.request('resources/subscribe', { uri }).catch((error: Error) => this.log.warn({ server: connection.key, uri, err: error.message }, 'resources/subscribe for a listen stream failed'));
    }
    const release = () => this.release(connection, uri);
    if (until.aborted) release();
    else until.addEventListener('abort', release, { once: true });
  }

  private release(connection: Connection, uri: string): void {
    const uris = this.holders.get(connection);
    const streams = uris?.get(uri) ?? 0;
    if (!uris || streams === 0) return;
    if (streams > 1) return void uris.set(uri, streams - 1);
    uris.delete(uri);
    if (uris.size === 0) this.holders.delete(connection);
    if (this.registry.remove(connection, uri, this)) void connection.request('resources/unsubscribe', { uri }).catch(() => undefined);
  }
}
