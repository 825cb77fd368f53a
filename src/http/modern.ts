// Owns the HTTP face's 2026-07-28 leg: a request without a session that carries the per-request
// `_meta` envelope (or names a modern revision in MCP-Protocol-Version) is served by the SDK's
// per-request handler (createMcpHandler with legacy: reject, which validates the envelope and the
// Mcp-Method/Mcp-Name headers, answers server/discover, stamps resultType and serves
// subscriptions/listen), one handler per endpoint, view and client. Each request is answered by a
// fresh gateway session of the modern era that ends with the exchange. Listen streams hear the
// gateway's list changes that concern their endpoint's view, and the updates of the resources they
// ask for (gateway/listen-resources.ts); while open they keep the servers they listen to running
// (gateway/listen-holds.ts).
import { createMcpHandler, isLegacyRequest, type McpHttpHandler, type Server } from '@modelcontextprotocol/server';
import type { Gateway } from '../gateway/gateway.js';
import type { GatewaySession } from '../gateway/session.js';
import type { ListChange } from '../gateway/list-change-feed.js';
import { viewIncludes, type View } from '../gateway/view.js';
import { MODERN_REQUEST_METHODS } from '../gateway/era.js';
import { ListenResourceSubscriber, listenedResources, listensForListChanges } from '../gateway/listen-resources.js';
import { BARE_PROFILE } from '../servers/profile.js';
import { moduleLogger } from '../logging/logger.js';
import type { AuthenticatedClient } from './clients.js';

interface EndpointHandler {
  handler: McpHttpHandler;
  view: View;
  client: AuthenticatedClient | undefined;
  /** The resource subscriptions its listen streams hold. */
  resources: ListenResourceSubscriber;
}

/** What the server factory needs to know about the request it builds a server for. */
interface RequestContext {
  view: View;
  client: AuthenticatedClient | undefined;
  /** The session the factory made for it. */
  session?: GatewaySession;
}

/** True when the SDK routes this request to its 2026-07-28 path (its own classification, not ours). */
export async function isModernRequest(request: Request, body: unknown): Promise<boolean> {
  return !(await isLegacyRequest(request, body));
}

/** 404 with -32601 for a request naming a method this face does not implement (undefined otherwise). */
function notImplemented(body: unknown): Response | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const { id, method } = body as { id?: unknown; method?: unknown };
  if (typeof method !== 'string' || (typeof id !== 'string' && typeof id !== 'number') || MODERN_REQUEST_METHODS.has(method)) return undefined;
  return Response.json({ jsonrpc: '2.0', id, error: { code: -32601, message: `Method not found: ${method}` } }, { status: 404 });
}

export class ModernHttpFace {
  private readonly handlers = new Map<string, EndpointHandler>();
  /** The request each factory call serves (the SDK hands the factory the Request it was given). */
  private readonly contexts = new WeakMap<Request, RequestContext>();
  private readonly log = moduleLogger('http');
  private readonly stopListening: () => void;

  constructor(private readonly gateway: Gateway) {
    this.stopListening = gateway.listChanges.subscribe((change) => this.onListChange(change));
  }

  /** Serves one 2026-07-28 request (body already read and parsed) for an endpoint's view. */
  async handle(request: Request, body: unknown, endpoint: string, view: View, client: AuthenticatedClient | undefined): Promise<Response> {
    const unknownMethod = notImplemented(body);
    if (unknownMethod) return unknownMethod;
    const key = JSON.stringify([client?.name ?? null, endpoint, view]);
    let entry = this.handlers.get(key);
    if (!entry) {
      const handler = createMcpHandler(({ requestInfo }) => this.serverFor(requestInfo), {
        legacy: 'reject',
        onerror: (error) => this.log.debug({ endpoint, err: error.message }, '2026-07-28 request refused or failed'),
      });
      const scope = client && !client.scope.unrestricted ? client.scope : undefined;
      const resources = new ListenResourceSubscriber((params) => handler.notify.resourceUpdated(params.uri), {
        subscriptions: this.gateway.subscriptions,
        holds: this.gateway.listenHolds,
        log: this.log,
        openSession: () => this.sessionFor(view, scope),
        endSession: (session) => this.gateway.endSession(session),
      });
      entry = { handler, view, client, resources };
      this.handlers.set(key, entry);
    }
    // A listen stream holds what it listens to until its request ends (or it was refused, below).
    const stream = new AbortController();
    request.signal.addEventListener('abort', () => stream.abort(), { once: true });
    const holdsForChanges = listensForListChanges(body);
    if (holdsForChanges) this.gateway.listenHolds.holdView(view, client && !client.scope.unrestricted ? client.scope : undefined, stream.signal);
    const uris = listenedResources(body);
    if (uris.length > 0) await entry.resources.holdAll(uris, stream.signal);
    const context: RequestContext = { view, client };
    this.contexts.set(request, context);
    // The authenticated client's name binds the bridge's requestState to it (mrtr-bridge.ts).
    const response = await entry.handler.fetch(request, { parsedBody: body, ...(client && { authInfo: { token: '', clientId: client.name, scopes: [] } }) });
    // A request the SDK answers without ever connecting the server it made (a listen stream: its
    // router serves it; a refusal) never closes that server, so its session would stay forever.
    const { session } = context;
    if (session && !session.closed && !session.server.transport) this.gateway.endSession(session);
    const streaming = response.ok && (response.headers.get('content-type') ?? '').includes('text/event-stream');
    if ((holdsForChanges || uris.length > 0) && !streaming) stream.abort();
    return response;
  }

  /** A session of one request for a view, to find the servers of the URIs a listen stream names. */
  private async sessionFor(view: View, scope: AuthenticatedClient['scope'] | undefined) {
    const session = await this.gateway.createSession(view, undefined, { era: 'modern', perRequest: true });
    session.scope = scope;
    return session;
  }

  private async serverFor(request: Request | undefined): Promise<Server> {
    const context = request && this.contexts.get(request);
    if (!context) throw new Error('a 2026-07-28 request reached the server factory without its endpoint context');
    const session = await this.gateway.createSession(context.view, undefined, { era: 'modern', perRequest: true });
    context.session = session;
    const { client } = context;
    session.scope = client && !client.scope.unrestricted ? client.scope : undefined;
    if (client) this.gateway.search.learning.setTeacher(session.id, client.name);
    return session.server;
  }

  /** A list changed: every listen stream whose view it concerns hears of it (modern sessions list the bare catalog). */
  private onListChange(change: ListChange): void {
    for (const { handler, view, client } of this.handlers.values()) {
      if (change.toolsetDefault) {
        if (view.kind === 'toolset') handler.notify.toolsChanged();
        continue;
      }
      if (change.profileKey !== BARE_PROFILE.key || change.server === undefined || !viewIncludes(view, change.server)) continue;
      if (client && !client.scope.unrestricted && !client.scope.allowsServer(change.server)) continue;
      if (change.kinds.includes('tools')) handler.notify.toolsChanged();
      if (change.kinds.includes('prompts')) handler.notify.promptsChanged();
      if (change.kinds.includes('resources') || change.kinds.includes('resourceTemplates')) handler.notify.resourcesChanged();
    }
  }

  async close(): Promise<void> {
    this.stopListening();
    const all = [...this.handlers.values()];
    this.handlers.clear();
    await Promise.all(all.map((entry) => entry.handler.close().catch(() => undefined)));
  }
}
