// Owns access control of the HTTP face: bearer tokens of configured clients (401 with
// WWW-Authenticate when missing or wrong), admin routes (state-changing /api routes need an admin
// client, or `http.unauthenticatedAdmin` on a loopback bind when no clients are configured), and
// per-client rate limits (429 with Retry-After). The dashboard's static files need no token: the page asks
// for one and sends it with its admin API calls. The Host check in guard.ts is not access control.
import type { Context, MiddlewareHandler } from 'hono';
import type { AuthenticatedClient, ClientRegistry } from './clients.js';
import { bearerToken } from './clients.js';
import { RateLimiter } from './rate-limit.js';
import { requestHeader } from './node-exchange.js';

export interface AuthOptions {
  clients: ClientRegistry;
  /** Allow state-changing admin routes without a token (honoured only when bound to loopback and no clients exist). */
  unauthenticatedAdmin: boolean;
  loopback: boolean;
  requestsPerMinute: number;
}

export type AuthVariables = { client: AuthenticatedClient | undefined };

const STATE_CHANGING = new Set(['POST', 'PUT', 'DELETE', 'PATCH']);
/** POST routes under /api that only read (a search with a body). */
const READ_POSTS = new Set(['/api/tools/search']);

/** The dashboard's own files (src/http/dashboard-route.ts): they hold no data, so they load without a token. */
export function isDashboardPath(path: string): boolean {
  return path === '/' || path === '/ui' || path.startsWith('/ui/');
}

export function isAdminPath(path: string): boolean {
  return path.startsWith('/api/') || path === '/api' || path === '/metrics';
}

function isStateChanging(method: string, path: string): boolean {
  return path.startsWith('/api/') && STATE_CHANGING.has(method) && !(method === 'POST' && READ_POSTS.has(path));
}

function isMcpPath(path: string): boolean {
  return path.endsWith('/mcp');
}

function refuse(c: Context, status: 401 | 403 | 429, message: string, headers: Record<string, string> = {}): Response {
  const body = isMcpPath(c.req.path) ? { jsonrpc: '2.0', error: { code: -32000, message }, id: null } : { error: message };
  return c.json(body, status, headers);
}

function challenge(error?: 'invalid_token'): Record<string, string> {
  return { 'WWW-Authenticate': `Bearer realm="switchboard"${error ? `, error="${error}"` : ''}` };
}

export function authGuard(options: AuthOptions): MiddlewareHandler<{ Variables: AuthVariables }> {
  const limiter = new RateLimiter();
  return async (c, next) => {
    const path = c.req.path;
    if (path === '/healthz' || (isDashboardPath(path) && (c.req.method === 'GET' || c.req.method === 'HEAD'))) return next();
    const method = c.req.method;
    if (!options.clients.enabled) {
      c.set('client', undefined);
      if (isStateChanging(method, path) && !(options.unauthenticatedAdmin && options.loopback)) {
        return refuse(
          c,
          401,
          `${method} ${path} changes the gateway and needs an admin client token. Create one with "switchboard token create admin --admin --write" and send "Authorization: Bearer <token>", or (loopback binds only) set switchboard.http.unauthenticatedAdmin: true.`,
          challenge(),
        );
      }
      return next();
    }
    const token = bearerToken(requestHeader(c, 'authorization'));
    const client = options.clients.authenticate(token);
    if (!client) {
      const message = token
        ? 'Unauthorized: the bearer token is not valid for any configured client (switchboard.clients).'
        : 'Unauthorized: this gateway requires a client token. Send "Authorization: Bearer <token>" (create one with "switchboard token create <client>").';
      return refuse(c, 401, message, challenge(token ? 'invalid_token' : undefined));
    }
    const wait = limiter.take(client.name, client.settings.requestsPerMinute ?? options.requestsPerMinute);
    if (wait > 0) {
      return refuse(c, 429, `Too many requests: client "${client.name}" is over ${client.settings.requestsPerMinute ?? options.requestsPerMinute} requests per minute. Retry after ${wait} s.`, { 'Retry-After': String(wait) });
    }
    if (isAdminPath(path) && !client.settings.admin) {
      return refuse(c, 403, `Forbidden: client "${client.name}" is not an admin client ("admin": true in switchboard.clients) and may not use ${path}.`);
    }
    c.set('client', client);
    return next();
  };
}
