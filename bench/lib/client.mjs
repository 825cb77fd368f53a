// @ts-check
// The load client: one SDK v2 Client per session over stdio (the client spawns the target), Streamable
// HTTP or legacy SSE. Requests go through `client.request(..., z.any())` so the harness does not
// validate results against the SDK's schemas: what is timed is the target, not the client's checks.
import { rootImport, installedVersion } from './root-modules.mjs';
import { registerPid, unregisterPid } from './procs.mjs';

const { Client, StreamableHTTPClientTransport, SSEClientTransport } = await rootImport('@modelcontextprotocol/client');
const { StdioClientTransport } = await rootImport('@modelcontextprotocol/client', './stdio');
const { z } = await rootImport('zod');

export const CLIENT_SDK_VERSION = installedVersion('@modelcontextprotocol/client');
const ANY = z.any();
const REQUEST_TIMEOUT_MS = 30_000;
const REQUEST_OPTIONS = { timeout: REQUEST_TIMEOUT_MS };
const STDERR_TAIL_LINES = 20;

/**
 * fetch for the HTTP transports. SDK 2.4's client sends every 2025-era POST with the transport's one
 * long-lived AbortSignal; Node's fetch adds an 'abort' listener to it per request and removes it only
 * when the request is garbage-collected, and past 1,500 listeners every further request emits a
 * MaxListenersExceededWarning (an Error with a stack, written to stderr) whatever limit is set on the
 * signal. That cost would be charged to the load client and grow with the run, so POSTs go out
 * without the signal: the harness awaits every call it makes, and a target that stops ends them.
 * GETs (the long-lived SSE streams) keep it, so closing a session still ends its stream.
 * @type {typeof fetch}
 */
const quietFetch = (input, init) => {
  if (init?.signal && init.method === 'POST') {
    const { signal: _dropped, ...rest } = init;
    return fetch(input, rest);
  }
  return fetch(input, init);
};

/**
 * @typedef {{kind: 'stdio', command: string, args: string[], env?: Record<string, string>, cwd?: string}
 *   | {kind: 'http', url: string}
 *   | {kind: 'sse', url: string}} Endpoint
 */

export class Session {
  /**
   * @param {any} client
   * @param {any} transport
   * @param {Endpoint['kind']} kind
   * @param {string[]} stderrTail
   */
  constructor(client, transport, kind, stderrTail) {
    this.client = client;
    this.transport = transport;
    this.kind = kind;
    this.stderrTail = stderrTail;
    /** @type {number | null} */
    this.pid = kind === 'stdio' ? transport.pid : null;
    this.closed = false;
  }

  /** @param {string} name @param {Record<string, unknown>} args */
  call(name, args) {
    return this.client.request({ method: 'tools/call', params: { name, arguments: args } }, ANY, REQUEST_OPTIONS);
  }

  /** @returns {Promise<{tools: Array<{name: string}>}>} */
  listTools() {
    return this.client.request({ method: 'tools/list', params: {} }, ANY, REQUEST_OPTIONS);
  }

  /** Ends the session: DELETE for Streamable HTTP, closing stdin (then signals) for stdio. */
  async close() {
    if (this.closed) return;
    this.closed = true;
    if (this.kind === 'http') await this.transport.terminateSession?.().catch(() => undefined);
    await this.client.close().catch(() => undefined);
    if (this.pid) unregisterPid(this.pid);
  }
}

/**
 * Opens and initializes one session; resolves with it and the connect+initialize time in ms.
 * @param {Endpoint} endpoint
 * @returns {Promise<{session: Session, connectMs: number}>}
 */
export async function openSession(endpoint) {
  const client = new Client({ name: 'switchboard-bench', version: '1.0.0' }, { capabilities: {} });
  /** @type {string[]} */
  const tail = [];
  let transport;
  if (endpoint.kind === 'stdio') {
    transport = new StdioClientTransport({
      command: endpoint.command,
      args: endpoint.args,
      env: /** @type {Record<string, string>} */ ({ ...process.env, ...endpoint.env }), // process.env's values are strings
      cwd: endpoint.cwd,
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (/** @type {Buffer} */ chunk) => {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (!line.trim()) continue;
        tail.push(line.length > 400 ? `${line.slice(0, 400)}...` : line);
        if (tail.length > STDERR_TAIL_LINES) tail.shift();
      }
    });
  } else if (endpoint.kind === 'http') {
    transport = new StreamableHTTPClientTransport(new URL(endpoint.url), { fetch: quietFetch });
  } else {
    transport = new SSEClientTransport(new URL(endpoint.url), { fetch: quietFetch });
  }
  const started = performance.now();
  try {
    await client.connect(transport, { timeout: REQUEST_TIMEOUT_MS });
  } catch (error) {
    await client.close().catch(() => undefined);
    const detail = tail.length ? `; last stderr:\n${tail.join('\n')}` : '';
    throw new Error(`connect failed: ${/** @type {Error} */ (error).message}${detail}`);
  }
  const connectMs = performance.now() - started;
  const session = new Session(client, transport, endpoint.kind, tail);
  if (session.pid) registerPid(session.pid);
  return { session, connectMs };
}
