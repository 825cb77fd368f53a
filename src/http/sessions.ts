// Owns the Streamable HTTP sessions of the HTTP face: one SDK transport and one gateway session per
// MCP session id, creation on initialize only, lookup (404 for unknown or ended ids, or ids used on
// another endpoint), and reaping of idle sessions together with their resources. Session-less
// 2026-07-28 requests go to the modern leg (modern.ts) unless the gateway serves the 2025 era only.
// A POST of one tools/call on an initialized session, arriving through a Node server, is answered by
// the session's relay lane (call-lane.ts) instead of the SDK transport.
import { randomUUID } from 'node:crypto';
import { WebStandardStreamableHTTPServerTransport, isInitializeRequest } from '@modelcontextprotocol/server';
import type { ClientCapabilities } from '@modelcontextprotocol/server';
import type { Gateway } from '../gateway/gateway.js';
import type { GatewaySession } from '../gateway/session.js';
import type { View } from '../gateway/view.js';
import { moduleLogger } from '../logging/logger.js';
import type { LimitSettings } from '../config/index.js';
import { DEFAULT_LIMITS, deeperThan } from '../gateway/input-limits.js';
import type { AuthenticatedClient } from './clients.js';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import { readJsonBody, readNodeJsonBody } from './body.js';
import { HttpCallLane } from './call-lane.js';
import type { NodeExchange } from './node-exchange.js';
import { preSessionReply } from './pre-session.js';
import { RequestIds } from './request-ids.js';
import { ModernHttpFace, isModernRequest } from './modern.js';
import { DEFAULT_INBOUND_ERA, MODERN_REVISIONS, type InboundEraSetting } from '../gateway/era.js';

interface HttpSession {
  transport: WebStandardStreamableHTTPServerTransport;
  session: GatewaySession;
  endpoint: string;
  /** The authenticated client that opened it (undefined without client tokens); only it may use the session. */
  client: string | undefined;
  /** Ids of its requests in progress: a second request with one of them is refused (request-ids.ts). */
  requestIds: RequestIds;
  /** Its tools/call POSTs answered beside the SDK transport (call-lane.ts). */
  lane: HttpCallLane;
}

function jsonRpcError(status: number, code: number, message: string): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

export class HttpSessions {
  private readonly sessions = new Map<string, HttpSession>();
  private readonly reaper: NodeJS.Timeout;
  private readonly log = moduleLogger('http');
  /** The 2026-07-28 leg (undefined with inboundEra legacy). */
  private readonly modern: ModernHttpFace | undefined;

  constructor(
    private readonly gateway: Gateway,
    private readonly idleMs: number,
    private readonly limits: LimitSettings = DEFAULT_LIMITS,
    inboundEra: InboundEraSetting = DEFAULT_INBOUND_ERA,
  ) {
    this.modern = inboundEra === 'auto' ? new ModernHttpFace(gateway) : undefined;
    this.reaper = setInterval(() => this.reap(), Math.max(1000, Math.min(60_000, Math.floor(idleMs / 2))));
    this.reaper.unref();
  }

  get size(): number {
    return this.sessions.size;
  }

  /** Handles one request for an endpoint (`/mcp`, `/servers/x/mcp`) that serves `view`, for `client` (when tokens are in use). */
  async handle(request: Request, endpoint: string, view: View, client?: AuthenticatedClient, node?: NodeExchange): Promise<Response> {
    const sessionId = node ? (node.incoming.headers['mcp-session-id'] as string | undefined) : request.headers.get('mcp-session-id'); // one value: Node joins repeats
    if (sessionId) {
      const existing = this.sessions.get(sessionId);
      if (!existing || existing.endpoint !== endpoint || existing.client !== client?.name) return jsonRpcError(404, -32001, 'Session not found: it ended or never existed here. Initialize a new session.');
      existing.session.lastActive = Date.now();
      if (request.method !== 'POST') return existing.transport.handleRequest(request);
      const read = node ? await readNodeJsonBody(node.incoming, this.limits.maxBodyBytes) : await readJsonBody(request, this.limits.maxBodyBytes);
      if (!read.ok) return jsonRpcError(read.status, read.code, read.message);
      existing.lane.cancelNamed(read.body);
      const claimed = existing.requestIds.claim(read.body);
      if ('refusal' in claimed) return claimed.refusal;
      const call = node && existing.lane.takes(node.incoming.headers, read.body);
      if (call) {
        existing.lane.run(call, node.outgoing, sessionId, request, claimed.release);
        return RESPONSE_ALREADY_SENT;
      }
      // Depth is checked per request by the session, so the -32602 carries the request's id.
      // A dispatched request's id is freed by its answer (open() below); one the transport refused
      // before dispatching it (an error status, not its event stream) is freed now.
      try {
        const response = await existing.transport.handleRequest(request, { parsedBody: read.body });
        if (response.status !== 200) claimed.release();
        return response;
      } catch (error) {
        claimed.release();
        throw error;
      }
    }
    if (request.method !== 'POST') return jsonRpcError(400, -32000, 'Bad Request: Mcp-Session-Id header is required');
    // Refused before the body is read or a session exists: a rejected initialize must cost nothing.
    const contentType = request.headers.get('content-type') ?? '';
    if (!/^application\/json\b/i.test(contentType)) return jsonRpcError(415, -32000, 'Unsupported Media Type: Content-Type must be application/json');
    const accept = request.headers.get('accept') ?? '';
    if (!accept.includes('application/json') || !accept.includes('text/event-stream')) {
      return jsonRpcError(406, -32000, 'Not Acceptable: Accept must list both application/json and text/event-stream');
    }
    // A 2026-07-28 request (its client names the revision in MCP-Protocol-Version) is a whole
    // request, not a handshake: it may be as large as any request. Anything else is read as an
    // initialize, within maxInitializeBodyBytes.
    const modernHint = this.modern !== undefined && MODERN_REVISIONS.includes(request.headers.get('mcp-protocol-version') ?? '');
    const read = await readJsonBody(request, modernHint ? this.limits.maxBodyBytes : this.limits.maxInitializeBodyBytes);
    if (!read.ok) return jsonRpcError(read.status, read.code, read.message);
    const body = read.body;
    if (deeperThan(body, this.limits.maxJsonDepth + 3)) return this.tooDeep();
    if (this.modern && (await isModernRequest(request, body))) return this.modern.handle(request, body, endpoint, view, client);
    if (read.bytes > this.limits.maxInitializeBodyBytes) {
      return jsonRpcError(413, -32600, `Payload Too Large: a request without a session may be at most ${this.limits.maxInitializeBodyBytes} bytes (switchboard.limits.maxInitializeBodyBytes).`);
    }
    const initialize = (Array.isArray(body) ? body : [body]).find((m) => isInitializeRequest(m));
    if (!initialize) return preSessionReply(body);
    if (client) {
      const max = client.settings.maxSessions ?? this.limits.sessionsPerClient;
      let open = 0;
      for (const entry of this.sessions.values()) if (entry.client === client.name) open++;
      if (open >= max) {
        return jsonRpcError(429, -32000, `Too many sessions: client "${client.name}" has ${open} open (limit ${max}, switchboard.clients[].maxSessions / limits.sessionsPerClient). End one with DELETE or let it idle out.`);
      }
    }
    return this.open(request, body, endpoint, view, initialize.params.capabilities, client);
  }

  private tooDeep(): Response {
    return jsonRpcError(400, -32602, `Invalid params: nested deeper than ${this.limits.maxJsonDepth} levels (switchboard.limits.maxJsonDepth)`);
  }

  private async open(request: Request, body: unknown, endpoint: string, view: View, capabilities: ClientCapabilities, client: AuthenticatedClient | undefined): Promise<Response> {
    const session = await this.gateway.createSession(view, capabilities);
    session.scope = client && !client.scope.unrestricted ? client.scope : undefined;
    if (client) this.gateway.search.learning.setTeacher(session.id, client.name);
    const requestIds = new RequestIds();
    const lane = new HttpCallLane(session);
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        this.sessions.set(id, { transport, session, endpoint, client: client?.name, requestIds, lane });
        this.log.info({ session: id, endpoint, ...(client && { client: client.name }) }, 'session opened');
      },
      onsessionclosed: (id) => this.forget(id),
    });
    transport.onclose = () => {
      lane.close();
      if (transport.sessionId) this.forget(transport.sessionId);
      this.gateway.endSession(session);
    };
    requestIds.follow(transport);
    lane.follow(transport);
    await session.server.connect(transport);
    const response = await transport.handleRequest(request, { parsedBody: body });
    // The transport refused the initialize (bad protocol version, headers, ...): nothing keeps the session.
    if (!transport.sessionId || !this.sessions.has(transport.sessionId)) {
      this.gateway.endSession(session);
      void transport.close().catch(() => undefined);
    }
    return response;
  }

  private forget(id: string): void {
    if (this.sessions.delete(id)) this.log.info({ session: id }, 'session closed');
  }

  private reap(): void {
    const cutoff = Date.now() - this.idleMs;
    for (const [id, entry] of this.sessions) {
      // A session whose request is still being answered (a slow server start) is not idle.
      if (entry.session.lastActive >= cutoff || entry.session.handling > 0) continue;
      this.log.info({ session: id }, 'session idle; reaped');
      this.sessions.delete(id);
      void entry.transport.close().catch(() => undefined);
      this.gateway.endSession(entry.session);
    }
  }

  async close(): Promise<void> {
    clearInterval(this.reaper);
    await this.modern?.close();
    const all = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all(all.map((e) => e.transport.close().catch(() => undefined)));
  }
}
