// Owns DNS-rebinding protection for the HTTP face: the Host header must name an allowed host and
// an Origin header, when present, an allowed origin. Loopback names are always allowed.
import type { MiddlewareHandler } from 'hono';
import { requestHeader } from './node-exchange.js';

const LOOPBACK = ['localhost', '127.0.0.1', '[::1]', '::1'];

export interface GuardOptions {
  /** The address the server is bound to (added to the allowed hosts unless it is a wildcard). */
  boundHost: string;
  allowedHosts: string[];
  /** Full origins (`https://app.example`) or bare host names. */
  allowedOrigins: string[];
}

function hostnameOf(hostHeader: string): string {
  if (hostHeader.startsWith('[')) return hostHeader.slice(0, hostHeader.indexOf(']') + 1);
  return hostHeader.split(':')[0]!;
}

export function originGuard(options: GuardOptions): MiddlewareHandler {
  const hosts = new Set([...LOOPBACK, ...options.allowedHosts.map((h) => h.toLowerCase())]);
  if (!['0.0.0.0', '::', ''].includes(options.boundHost)) hosts.add(options.boundHost.toLowerCase());
  const origins = new Set(options.allowedOrigins.map((o) => o.toLowerCase().replace(/\/$/, '')));
  return async (c, next) => {
    const host = requestHeader(c, 'host');
    if (!host || !hosts.has(hostnameOf(host.toLowerCase()))) {
      return c.json({ jsonrpc: '2.0', error: { code: -32000, message: `Forbidden: Host "${host ?? ''}" is not allowed. Add it to switchboard.http.allowedHosts to accept it.` }, id: null }, 403);
    }
    const origin = requestHeader(c, 'origin');
    if (origin) {
      let allowed = false;
      try {
        const url = new URL(origin);
        const name = url.hostname.toLowerCase();
        allowed = LOOPBACK.includes(name) || LOOPBACK.includes(`[${name}]`) || origins.has(url.origin.toLowerCase()) || origins.has(name);
      } catch {
        allowed = false;
      }
      if (!allowed) {
        return c.json({ jsonrpc: '2.0', error: { code: -32000, message: `Forbidden: Origin "${origin}" is not allowed. Add it to switchboard.http.allowedOrigins to accept it.` }, id: null }, 403);
      }
    }
    await next();
  };
}
