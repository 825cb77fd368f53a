// Owns one client session: an SDK Server (one per client connection) whose requests are answered
// from the catalog (lists: session-lists.ts) or forwarded verbatim to the owning server (forward.ts;
// resource-routing.ts picks a URI's server), local tools answered in place, its log level, its own
// toolset, its scope. It reaches the gateway only through the ports it is given (ports.ts).
import { randomUUID } from 'node:crypto';
import { Server, ProtocolError } from '@modelcontextprotocol/server';
import type { ClientCapabilities, JSONRPCRequest, ServerContext, ServerCapabilities, LoggingLevel, Implementation } from '@modelcontextprotocol/server';
import type { Connection } from '../servers/connection.js';
import { profileOf, type CapabilityProfile } from '../servers/profile.js';
import { BRIDGED_METHODS, continuesBridgedCall, forwardBridged, resumeBridged } from './bridged-forward.js';
import { serverUnavailable } from '../servers/errors.js';
import { forwardRequest } from './forward.js';
import type { Catalog } from '../catalog/catalog.js';
import { closeMatches, type NamedEntry } from '../catalog/naming.js';
import { selectTools } from '../catalog/repair.js';
import { SessionToolset, TOOLSET_TOOL_NAMES, callToolsetTool, defaultToolset, type ToolsetToolContext } from './toolset-tools.js';
import type { View } from './view.js';
import type { LocalToolContext, SessionServices } from './ports.js';
import { META_TOOL_NAMES } from '../views/meta-tools.js';
import { callMetaTool } from './meta-calls.js';
import { LIST_METHODS, answerList, isToolsetView, toolsetTools } from './session-lists.js';
import { logSeverity } from './log-levels.js';
import { completionTarget, ownerOfUri } from './resource-routing.js';
import type { FallbackSuggestion } from '../views/fallbacks.js';
import type { ClientScope } from '../views/scope.js';
import { CallGate, checkDepth, checkName } from './input-limits.js';
import { isListedTool } from './listed-tool.js';
import { scopeEntries } from './scope-filter.js';
import { earlyAnswerFor } from './early-answer.js';
import { answerManagement } from './management-endpoint.js';
import { failureResult, retryWithFallback, suggestInError, withSuggestions } from './fallback-answer.js';
import { withheldResult } from '../catalog/pinning.js';
import { legacySessionOnly, type InboundEra } from './era.js';
import { withMissingCapabilityError } from './missing-capability.js';
import { cancelOf } from './request-cancel.js';

type Params = Record<string, unknown>;
type Result = Record<string, unknown>;

export interface SessionOptions {
  view: View;
  capabilities: ServerCapabilities;
  instructions?: string;
  serverInfo: Implementation;
  /** The session id, when the caller needed it before the session existed (a per-server probe). */
  id?: string;
  /** The protocol era its client speaks (default legacy: an initialize handshake); see era.ts. */
  era?: InboundEra;
  /** It serves one HTTP request (a 2026-07-28 exchange) and ends with it. */
  perRequest?: boolean;
}

export class GatewaySession {
  readonly id: string;
  readonly server: Server;
  readonly view: View;
  /** legacy: one session per initialize; modern: one per 2026-07-28 request (HTTP) or connection (stdio). */
  readonly era: InboundEra;
  readonly perRequest: boolean;
  lastActive = Date.now();
  logLevel: LoggingLevel | undefined;
  closed = false;
  /** Requests of this session being answered now (listings included): an idle release waits for none. */
  handling = 0;
  /** Requests of this session now running on each connection (newest last): reverse requests go to them. */
  readonly inflight = new Map<Connection, ServerContext[]>();
  private cachedProfile: CapabilityProfile | undefined;
  /** The toolset this session equipped itself, or the gateway's default until it does. */
  private readonly toolset: SessionToolset;
  /** The authenticated HTTP client's scope (undefined: unrestricted); listings are filtered and calls checked by it. */
  scope: ClientScope | undefined;
  /** tools/call requests now running (bounded by limits.concurrentCallsPerSession; results bounded too). */
  private readonly calls = new CallGate();
  /** The capabilities the latest 2026-07-28 request declared in its envelope (see noteDeclaredCapabilities). */
  private declaredPerRequest: ClientCapabilities | undefined;

  /** What the local tools (toolsets, meta, management) of this session act on. */
  readonly local: LocalToolContext;

  constructor(
    /** The gateway's services, as narrow ports (built once by the gateway, shared by every session). */
    readonly services: SessionServices<GatewaySession>,
    options: SessionOptions,
  ) {
    this.local = services.local;
    this.toolset = new SessionToolset(this.local.toolsets, () => this.services.lifecycle.sessionToolsChanged(this));
    this.id = options.id ?? randomUUID();
    this.view = options.view;
    this.era = options.era ?? 'legacy';
    this.perRequest = options.perRequest ?? false;
    this.server = new Server(options.serverInfo, { capabilities: options.capabilities, instructions: options.instructions });
    this.server.fallbackRequestHandler = async (request, ctx) => {
      if (this.era === 'modern') this.noteDeclaredCapabilities(ctx);
      this.handling++;
      try {
        return await this.handle(request, ctx);
      } finally {
        this.handling--;
        this.lastActive = Date.now();
      }
    };
    this.server.fallbackNotificationHandler = async (notification) => {
      this.lastActive = Date.now();
      if (notification.method === 'notifications/roots/list_changed') await this.services.lifecycle.rootsChanged(this);
    };
    if (options.capabilities.logging) {
      this.server.removeRequestHandler('logging/setLevel');
      this.server.setRequestHandler('logging/setLevel', async (request) => {
        this.lastActive = Date.now();
        this.logLevel = request.params.level;
        await this.services.lifecycle.fanOutLogLevel(this, request.params.level);
        return {};
      });
    }
    this.server.onclose = () => this.services.lifecycle.endSession(this);
  }

  /** The client's mirrored capabilities (known once it has initialized). */
  get profile(): CapabilityProfile {
    // A 2026-07-28 client declares its capabilities per request: listings use a shared connection
    // with them (a server there cannot reach the client: its requests are refused); calls that can
    // ask the client something run on a connection of their own through the bridge (forward below).
    if (this.era === 'modern') return profileOf(this.bridgedCapabilities(), undefined);
    if (this.cachedProfile) return this.cachedProfile;
    const capabilities = this.server.getClientCapabilities();
    if (!capabilities) return profileOf(undefined, this.id); // not initialized yet: do not remember
    return (this.cachedProfile = profileOf(capabilities, this.id));
  }

  get clientCapabilities() {
    return this.server.getClientCapabilities();
  }

  wantsLog(level: string): boolean {
    if (!this.logLevel) return true;
    return logSeverity(level) >= logSeverity(this.logLevel);
  }

  /**
   * The session's catalog, with every server listed that answered within listTimeoutMs (or is
   * cached); servers still starting are left out and announced with list_changed when they arrive.
   */
  async catalog(): Promise<Catalog> {
    const catalog = this.services.catalogs.catalogFor(this.profile);
    await catalog.ensureWithin(this.catalogServers(), this.services.settings.listTimeoutMs);
    return catalog;
  }

  /** The session's catalog when nothing is left to wait for (catalog() would resolve to it at once), else undefined. */
  private listedCatalog(): Catalog | undefined {
    const catalog = this.services.catalogs.catalogFor(this.profile);
    return catalog.listedAll(this.catalogServers()) ? catalog : undefined;
  }

  /** The servers this session's catalog waits for: its one server on a per-server endpoint, else all. */
  private catalogServers(): string[] | undefined {
    return this.view.kind === 'server' ? [this.view.server] : undefined;
  }

  /**
   * Answers one request (its caller awaits it, so a check that throws here rejects the request).
   * Not async, and a tools/call goes straight to callNamed: every promise layer on a call's way is
   * paid twice per call (down and back up), see docs/performance.md.
   */
  private handle(request: JSONRPCRequest, ctx: ServerContext): Promise<Result> {
    this.lastActive = Date.now();
    if (this.era === 'modern' && continuesBridgedCall(request, ctx)) return resumeBridged(this, ctx);
    const params = (request.params ?? {}) as Params;
    const single = this.view.kind === 'server' ? this.view.server : undefined;
    if (this.view.kind === 'management') return answerManagement(this, request, params, ctx);
    checkDepth(params, this.services.settings.limits);
    if (this.scope) return this.scoped(this.scope, request, params, ctx, single);
    if (request.method === 'tools/call') return this.callNamed('tools', request, params, ctx);
    return this.dispatch(request, params, ctx, single);
  }

  /** A scoped client's request: answered, then its listings filtered by its scope. */
  private async scoped(scope: ClientScope, request: JSONRPCRequest, params: Params, ctx: ServerContext, single: string | undefined): Promise<Result> {
    return scopeEntries(scope, request.method, await this.dispatch(request, params, ctx, single), () => this.catalog(), single);
  }

  private async dispatch(request: JSONRPCRequest, params: Params, ctx: ServerContext, single: string | undefined): Promise<Result> {
    if (LIST_METHODS.has(request.method)) return answerList(this, request.method, params, single);
    switch (request.method) {
      case 'tools/call':
        return this.callNamed('tools', request, params, ctx);
      case 'prompts/get':
        return this.callNamed('prompts', request, params, ctx);
      case 'resources/read':
        return this.forward(await this.ownerOfUri(params.uri), request, params, ctx);
      case 'resources/subscribe':
      case 'resources/unsubscribe': {
        const connection = await this.ownerOfUri(params.uri);
        const subscribe = request.method === 'resources/subscribe';
        const first = subscribe
          ? this.services.subscriptions.add(connection, params.uri as string, this)
          : this.services.subscriptions.remove(connection, params.uri as string, this);
        if (first) return this.forward(connection, request, params, ctx);
        return {};
      }
      case 'completion/complete':
        return this.complete(request, params, ctx);
      default:
        if (single) return this.forward(this.connectionFor(single), request, params, ctx);
        throw new ProtocolError(-32601, `Method not found: ${request.method}`);
    }
  }


  private isMetaView(): boolean {
    return this.view.kind === 'meta' || this.view.kind === 'auto';
  }

  /**
   * Forwards a tools/call and, when it fails (isError result, protocol error, timeout, server
   * down), attaches fallback suggestions: in the error's data for protocol errors, in
   * structuredContent (plus one text line) for isError results.
   */
  async forwardTool(catalog: Catalog, entry: NamedEntry, exposed: string, request: JSONRPCRequest, params: Params, ctx: ServerContext, retrying = false, onResult?: (result: Result) => void): Promise<Result> {
    if (this.scope && !this.scope.allowsTool(entry.serverKey, entry.originalName, exposed)) return this.refused(`tool "${exposed}"`);
    try {
      const result = await this.forward(this.connectionFor(entry.serverKey), request, params, ctx, exposed, true, onResult);
      if (result.isError !== true) {
        this.services.learning.noteCall(this.id, entry.serverKey, entry.originalName);
        return result;
      }
      const suggestions = this.fallbacks(catalog, exposed);
      if (!suggestions.length) return result;
      if (this.services.settings.meta.autoRetryFallback && !retrying) return retryWithFallback(this, catalog, suggestions[0]!.toolKey, exposed, result, request, params, ctx);
      return withSuggestions(result, suggestions);
    } catch (error) {
      const failure = error as { code?: unknown; data?: unknown; message?: string };
      if (typeof failure.code === 'number' && !cancelOf(ctx).aborted) {
        const suggestions = this.fallbacks(catalog, exposed);
        if (suggestions.length && this.services.settings.meta.autoRetryFallback && !retrying) {
          return retryWithFallback(this, catalog, suggestions[0]!.toolKey, exposed, failureResult(failure), request, params, ctx);
        }
        if (suggestions.length) suggestInError(failure, suggestions);
      }
      throw error;
    }
  }

  /** Similar tools for a failing one (never itself, never a tool of a server that is down). */
  fallbacks(catalog: Catalog, exposed: string): FallbackSuggestion[] {
    try {
      return this.services.ranking.fallbacksFor(catalog, exposed);
    } catch (error) {
      // Suggestions are a courtesy: they must never hide the real failure.
      this.services.log.warn({ tool: exposed, err: (error as Error).message }, 'fallback suggestions failed');
      return [];
    }
  }

  /** The toolset this session sees in toolset mode: its own choice, else the gateway's default. */
  equippedToolset(): string | undefined {
    return this.toolset.current();
  }

  /** True while this session has not equipped or unequipped a toolset itself. */
  get followsDefaultToolset(): boolean {
    return this.toolset.followsDefault;
  }

  /** A tool call outside the client's scope: a tool error the model can read, nothing forwarded. */
  private refused(what: string): Result {
    return { isError: true, content: [{ type: 'text', text: this.scope!.refusal(what) }], _meta: { 'switchboard/forbidden': true } };
  }

  /** What the toolset tools act on: the gateway's default on the management endpoint, else this session's own. */
  toolsetContext(): ToolsetToolContext {
    const toolsets = this.local.toolsets;
    if (!toolsets) throw new ProtocolError(-32603, 'Toolsets need the store, and this gateway runs without one.');
    // The management endpoint changes the gateway's default (persisted); any other session only itself.
    const equipped = this.view.kind === 'management' ? defaultToolset(toolsets) : this.toolset.equipped(toolsets);
    return { toolsets, equipped, catalog: () => this.catalog(), serverKeys: () => this.services.servers.keys() };
  }

  private connectionFor(serverKey: string): Connection {
    const connection = this.services.servers.connection(serverKey, this.profile);
    if (!connection) throw serverUnavailable(serverKey, 'it is no longer configured', 'List the tools again to see what is available now.');
    return connection;
  }

  /** tools/call and prompts/get: resolve the exposed name to (server, original name) and forward (its checks throw: the caller awaits). */
  private callNamed(kind: 'tools' | 'prompts', request: JSONRPCRequest, params: Params, ctx: ServerContext): Promise<Result> {
    const name = params.name;
    if (typeof name !== 'string') throw new ProtocolError(-32602, `Invalid params: "name" must be a string`);
    checkName(name, this.services.settings.limits);
    if (kind === 'tools') return this.calls.run(this.services.settings.limits, () => this.callNamedChecked(kind, request, params, ctx, name));
    return this.callNamedChecked(kind, request, params, ctx, name);
  }

  private async callNamedChecked(kind: 'tools' | 'prompts', request: JSONRPCRequest, params: Params, ctx: ServerContext, name: string): Promise<Result> {
    if (this.view.kind === 'server') {
      if (this.scope && kind === 'tools' && !this.scope.allowsTool(this.view.server, name)) return this.refused(`tool "${name}" of server "${this.view.server}"`);
      const held = kind === 'tools' ? (await this.catalog()).withheld(name, this.view.server) : undefined;
      if (held) return withheldResult(name, held);
      const connection = this.connectionFor(this.view.server);
      if (kind === 'tools' && selectTools([{ name }], connection.config).length === 0) {
        throw new ProtocolError(-32602, `Tool "${name}" is disabled on server "${this.view.server}" (enabledTools / disabledTools in its configuration).`, { name, disabled: true });
      }
      const record = kind !== 'tools' || (await isListedTool(await this.catalog(), this.view.server, name));
      return this.forward(connection, request, params, ctx, name, record, kind === 'tools' ? this.earlyAnswer(ctx) : undefined);
    }
    if (kind === 'tools' && this.view.kind === 'toolset' && TOOLSET_TOOL_NAMES.has(name)) {
      const refusal = this.era === 'modern' ? legacySessionOnly(name) : undefined;
      if (refusal) return refusal;
      return callToolsetTool(this.toolsetContext(), name, params.arguments);
    }
    if (kind === 'tools' && this.isMetaView() && META_TOOL_NAMES.has(name)) return callMetaTool(this, name, request, params, ctx);
    const catalog = this.listedCatalog() ?? (await this.catalog());
    const entry = catalog.nameTable(kind).resolve(name) ?? (await catalog.resolveLate(kind, name));
    const held = !entry && kind === 'tools' ? catalog.withheld(name) : undefined;
    if (held) return this.scope && !this.scope.allowsTool(held.server, held.tool, name) ? this.refused(`tool "${name}"`) : withheldResult(name, held);
    if (!entry) {
      const noun = kind === 'tools' ? 'tool' : 'prompt';
      const suggestions = closeMatches(name, catalog.nameTable(kind).entries().map((e) => e.exposed)); // as it is after resolveLate
      const hint = suggestions.length ? ` Did you mean: ${suggestions.join(', ')}?` : ` List ${kind} to see what is available.`;
      throw new ProtocolError(-32602, `Unknown ${noun}: "${name}".${hint}`, { name, suggestions });
    }
    if (kind === 'tools' && isToolsetView(this.view) && !toolsetTools(this, catalog).some((t) => t.name === name)) {
      const where = this.view.kind === 'fixed-toolset' ? `toolset "${this.view.name}"` : 'the equipped toolset';
      throw new ProtocolError(-32602, `Tool "${name}" is not in ${where}. List tools to see what is available, or equip a toolset that has it.`, { name });
    }
    if (kind === 'tools') return await this.forwardTool(catalog, entry, name, request, { ...params, name: entry.originalName }, ctx, false, this.earlyAnswer(ctx));
    if (this.scope && !this.scope.allowsServer(entry.serverKey)) throw new ProtocolError(-32602, this.scope.refusal(`prompt "${name}"`), { name, forbidden: true });
    return await this.forward(this.connectionFor(entry.serverKey), request, { ...params, name: entry.originalName }, ctx, name);
  }

  /** The connection of the server that serves a resource URI in this session's view (for subscriptions). */
  resourceConnection(uri: string): Promise<Connection> {
    return this.ownerOfUri(uri);
  }

  /** A downstream reported a change of a resource this session subscribed to. */
  notifyResourceUpdated(params: Record<string, unknown>): void {
    void this.server.notification({ method: 'notifications/resources/updated', params }).catch(() => undefined);
  }

  private async ownerOfUri(uri: unknown): Promise<Connection> {
    return this.connectionFor(await ownerOfUri(this, uri));
  }

  private async complete(request: JSONRPCRequest, params: Params, ctx: ServerContext): Promise<Result> {
    const target = await completionTarget(this, params);
    return this.forward(this.connectionFor(target.server), request, target.params, ctx);
  }

  /** A lane call's early answer (early-answer.ts), for the tool call this session forwards as the call's own answer. */
  private earlyAnswer(ctx: ServerContext): ((result: Result) => void) | undefined {
    return earlyAnswerFor(ctx, this.services.settings.limits.maxResultChars);
  }

  /**
   * Sends one request to a server and returns its result untouched (see forward.ts); for a
   * 2026-07-28 client, a server's refusal for a capability it did not declare is -32021.
   */
  private forward(connection: Connection, request: JSONRPCRequest, params: Params, ctx: ServerContext, label?: string, record = true, onResult?: (result: Result) => void): Promise<Result> {
    if (this.era !== 'modern') return forwardRequest(this, connection, request, params, ctx, label, record, onResult);
    const capabilities = this.bridgedCapabilities();
    if (!BRIDGED_METHODS.has(request.method)) return forwardRequest(this, connection, request, params, ctx, label, record);
    return withMissingCapabilityError(capabilities ? forwardBridged(this, capabilities, connection, request, params, ctx, label, record) : forwardRequest(this, connection, request, params, ctx, label, record));
  }

  /**
   * A 2026-07-28 request declares its client's capabilities in its envelope. Over HTTP the SDK seeds
   * them into the request's own server instance; a stdio connection has one instance for all its
   * requests, so the latest request's declaration is kept here (clients declare the same each time).
   */
  private noteDeclaredCapabilities(ctx: ServerContext): void {
    const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
    const declared = envelope?.['io.modelcontextprotocol/clientCapabilities'];
    if (declared && typeof declared === 'object') this.declaredPerRequest = declared as ClientCapabilities;
  }

  /** A 2026-07-28 request's mirrored capabilities (sampling, elicitation, roots), when it declared any. */
  private bridgedCapabilities(): ClientCapabilities | undefined {
    if (this.era !== 'modern') return undefined;
    const mirrored = profileOf(this.declaredPerRequest ?? this.server.getClientCapabilities(), undefined).capabilities;
    return Object.keys(mirrored).length ? mirrored : undefined;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.server.close().catch(() => undefined);
  }
}
