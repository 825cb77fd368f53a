// Owns the Streamable HTTP sessions of the HTTP face: one SDK transport and one gateway session per
// MCP session id, creation on initialize only, lookup (404 for unknown or ended ids, or ids used on
// another endpoint), and reaping of idle sessions together with their resources.
import { randomUUID } from 'node:crypto';
import { WebStandardStreamableHTTPServerTransport, isInitializeRequest } from '@modelcontextprotocol/server';
import type { ClientCapabilities } from '@modelcontextprotocol/server';
import type { Gateway } from '../gateway/gateway.js';
import type { GatewaySession } from '../gateway/session.js';
import type { View } from '../gateway/view.js';
import { moduleLogger } from '../logging/logger.js';

interface HttpSession {
  transport: WebStandardStreamableHTTPServerTransport;
  session: GatewaySession;
  endpoint: string;
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

  constructor(
    private readonly gateway: Gateway,
    private readonly idleMs: number,
  ) {
    this.reaper = setInterval(() => this.reap(), Math.max(1000, Math.min(60_000, Math.floor(idleMs / 2))));
    this.reaper.unref();
  }

  get size(): number {
    return this.sessions.size;
  }

  /** Handles one request for an endpoint (`/mcp`, `/servers/x/mcp`) that serves `view`. */
  async handle(request: Request, endpoint: string, view: View): Promise<Response> {
    const sessionId = request.headers.get('mcp-session-id');
    if (sessionId) {
      const existing = this.sessions.get(sessionId);
      if (!existing || existing.endpoint !== endpoint) return jsonRpcError(404, -32001, 'Session not found: it ended or never existed here. Initialize a new session.');
      existing.session.lastActive = Date.now();
      return existing.transport.handleRequest(request);
    }
    if (request.method !== 'POST') return jsonRpcError(400, -32000, 'Bad Request: Mcp-Session-Id header is required');
    let body: unknown;
    try {
      body = await request.json();
    } catch {
      return jsonRpcError(400, -32700, 'Parse error: the body is not valid JSON');
    }
    const initialize = (Array.isArray(body) ? body : [body]).find((m) => isInitializeRequest(m));
    if (!initialize) return jsonRpcError(400, -32000, 'Bad Request: no valid session id; send initialize first');
    return this.open(request, body, endpoint, view, initialize.params.capabilities);
  }

  private async open(request: Request, body: unknown, endpoint: string, view: View, capabilities: ClientCapabilities): Promise<Response> {
    const session = await this.gateway.createSession(view, capabilities);
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        this.sessions.set(id, { transport, session, endpoint });
        this.log.info({ session: id, endpoint }, 'session opened');
      },
      onsessionclosed: (id) => this.forget(id),
    });
    transport.onclose = () => {
      if (transport.sessionId) this.forget(transport.sessionId);
      this.gateway.endSession(session);
    };
    await session.server.connect(transport);
    return transport.handleRequest(request, { parsedBody: body });
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
    const all = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all(all.map((e) => e.transport.close().catch(() => undefined)));
  }
}
