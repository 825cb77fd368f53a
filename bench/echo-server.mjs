#!/usr/bin/env node
// @ts-check
// The benchmark's downstream MCP server: three cheap tools, so what is measured is the transport
// and whatever sits between the client and this server.
//
//   node bench/echo-server.mjs --stdio
//   node bench/echo-server.mjs --http [--port N] [--exit-on-stdin-close]
//
// Tools: echo {message} returns the message as text; sum {a, b} returns a + b as text;
// payload {bytes} returns a text of exactly `bytes` ASCII bytes.
//
// Plain JavaScript on purpose: it starts in ~100 ms with no compiler or loader in front of it, which
// matters for connect times and for peers that start a fresh server per request (supergateway's
// stateless mode), and it runs on any Node without a build step.
//
// HTTP mode serves stateful Streamable HTTP sessions (one McpServer per session) on
// http://127.0.0.1:<port>/mcp, prints `listening <url>` to stderr once bound, and exits on SIGTERM,
// SIGINT, or (with --exit-on-stdin-close) when its parent closes stdin. Only JSON-RPC goes to stdout.
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { rootImport } from './lib/root-modules.mjs';

const { McpServer, WebStandardStreamableHTTPServerTransport } = await rootImport('@modelcontextprotocol/server');
const { z } = await rootImport('zod');

const MAX_PAYLOAD_BYTES = 16 * 1024 * 1024;
/** @type {Map<number, string>} */
const payloads = new Map();

/** @param {number} bytes */
function payloadOf(bytes) {
  let text = payloads.get(bytes);
  if (text === undefined) {
    text = 'x'.repeat(bytes);
    if (payloads.size < 8) payloads.set(bytes, text);
  }
  return text;
}

/** @param {string} text */
const textResult = (text) => ({ content: [{ type: /** @type {const} */ ('text'), text }] });

function createEchoServer() {
  const server = new McpServer({ name: 'switchboard-bench-echo', version: '1.0.0' });
  server.registerTool(
    'echo',
    { description: 'Returns its message as text.', inputSchema: z.object({ message: z.string() }) },
    (/** @type {{message: string}} */ { message }) => textResult(message),
  );
  server.registerTool(
    'sum',
    { description: 'Returns a + b as text.', inputSchema: z.object({ a: z.number(), b: z.number() }) },
    (/** @type {{a: number, b: number}} */ { a, b }) => textResult(String(a + b)),
  );
  server.registerTool(
    'payload',
    {
      description: 'Returns a text of exactly `bytes` ASCII bytes.',
      inputSchema: z.object({ bytes: z.number().int().min(0).max(MAX_PAYLOAD_BYTES) }),
    },
    (/** @type {{bytes: number}} */ { bytes }) => textResult(payloadOf(bytes)),
  );
  return server;
}

/** @param {string} message */
function log(message) {
  process.stderr.write(`[echo-server] ${message}\n`);
}

async function serveStdio() {
  const { StdioServerTransport } = await rootImport('@modelcontextprotocol/server', './stdio');
  const server = createEchoServer();
  await server.connect(new StdioServerTransport());
  const stop = () => void server.close().finally(() => process.exit(0));
  process.stdin.once('end', stop);
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

/** @param {number} status @param {number} code @param {string} message */
function jsonRpcError(status, code, message) {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

/** @param {number} port @param {boolean} exitOnStdinClose */
async function serveHttp(port, exitOnStdinClose) {
  const { Hono } = await rootImport('hono');
  const { serve } = await rootImport('@hono/node-server');
  /** @type {Map<string, {transport: any, server: any}>} */
  const sessions = new Map();

  /** @param {Request} request */
  async function open(request) {
    let body;
    try {
      body = await request.json();
    } catch {
      return jsonRpcError(400, -32700, 'Parse error: the body is not valid JSON');
    }
    const messages = Array.isArray(body) ? body : [body];
    if (!messages.some((m) => m && typeof m === 'object' && m.method === 'initialize')) {
      return jsonRpcError(400, -32000, 'Bad Request: Mcp-Session-Id header is required');
    }
    const server = createEchoServer();
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (/** @type {string} */ id) => void sessions.set(id, { transport, server }),
      onsessionclosed: (/** @type {string} */ id) => void sessions.delete(id),
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    return transport.handleRequest(request, { parsedBody: body });
  }

  const app = new Hono();
  app.all('/mcp', (/** @type {any} */ c) => {
    const request = c.req.raw;
    const id = request.headers.get('mcp-session-id');
    if (id) {
      const session = sessions.get(id);
      if (!session) return jsonRpcError(404, -32001, 'Session not found');
      return session.transport.handleRequest(request);
    }
    if (request.method !== 'POST') return jsonRpcError(400, -32000, 'Bad Request: Mcp-Session-Id header is required');
    return open(request);
  });

  const httpServer = await new Promise((resolve, reject) => {
    const s = serve({ fetch: app.fetch, hostname: '127.0.0.1', port }, () => resolve(s));
    s.once('error', reject);
  });
  const address = /** @type {import('node:net').AddressInfo} */ (httpServer.address());
  log(`listening http://127.0.0.1:${address.port}/mcp`);

  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    const open = [...sessions.values()];
    sessions.clear();
    void Promise.allSettled(open.map((s) => s.server.close())).finally(() => {
      httpServer.close(() => process.exit(0));
      httpServer.closeAllConnections?.();
      setTimeout(() => process.exit(0), 1000).unref();
    });
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  if (exitOnStdinClose) {
    process.stdin.once('end', stop);
    process.stdin.once('close', stop);
    process.stdin.resume();
  }
}

const USAGE = 'usage: echo-server.mjs (--stdio | --http [--port N] [--exit-on-stdin-close])';

async function main() {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        stdio: { type: 'boolean' },
        http: { type: 'boolean' },
        port: { type: 'string' },
        'exit-on-stdin-close': { type: 'boolean' },
      },
    }));
  } catch (error) {
    log(`${/** @type {Error} */ (error).message}\n${USAGE}`);
    process.exit(2);
  }
  if (values.http) {
    const port = Number(values.port ?? '0');
    if (!Number.isInteger(port) || port < 0 || port > 65535) {
      log(`--port must be an integer 0-65535\n${USAGE}`);
      process.exit(2);
    }
    await serveHttp(port, values['exit-on-stdin-close'] === true);
  } else {
    await serveStdio();
  }
}

main().catch((error) => {
  log(`fatal: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exit(1);
});
