// Owns reaching Node's own request and response objects under a Hono request (@hono/node-server
// passes them as the request's env), and reading a request header from Node's parsed headers: the
// HTTP face's guards and its MCP endpoints read headers there, so the adapter's web `Headers` copy of
// them is never built on a forwarded call's path. Without a Node server (the app fetched directly),
// both fall back to the web request.
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Node's own request and response objects under a request. */
export interface NodeExchange {
  incoming: IncomingMessage;
  outgoing: ServerResponse;
}

/** Node's request and response under a Hono request's env, when it came through a Node server. */
export function nodeExchange(env: unknown): NodeExchange | undefined {
  const exchange = env as Partial<NodeExchange> | undefined;
  return exchange?.incoming && exchange.outgoing ? (exchange as NodeExchange) : undefined;
}

/**
 * A request header (`name` in lower case) from Node's parsed headers when there are some, else from
 * the web request. Node keeps the first of a repeated Host, Authorization, Content-Type, Content-Length,
 * User-Agent and a few others (where `Headers` would join them), and joins repeats of other headers
 * with ", " as `Headers` does.
 */
export function requestHeader(c: { env: unknown; req: { header(name: string): string | undefined } }, name: string): string | undefined {
  const node = nodeExchange(c.env);
  if (!node) return c.req.header(name);
  const value = node.incoming.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}
