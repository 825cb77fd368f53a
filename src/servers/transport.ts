// Owns building an SDK client transport from one server's configuration (stdio, Streamable HTTP,
// legacy SSE). Configured headers go on every request, and the stored OAuth token for this server when
// there is one; nothing from a connected client is added.
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { ReadBuffer, StreamableHTTPClientTransport, SSEClientTransport } from '@modelcontextprotocol/client';
import type { Transport } from '@modelcontextprotocol/client';
import type { ServerConfig } from '../config/index.js';
import { trackTree } from './process-tree.js';
import { claimPrestarted, hasPrestarted } from './prestart.js';
import { AdoptedStdioTransport } from './adopted-transport.js';
import type { DownstreamInitializeParams } from './downstream-hello.js';
import { StdioLineBuffer } from './stdio-line-buffer.js';
import { entryEnvironment, stdioSpawnSpec } from './spawn-spec.js';
import type { StoredTokenAuth } from '../auth/stored-token-auth.js';
import type { Logger } from '../logging/logger.js';

export interface BuiltTransport {
  transport: Transport;
  /** Present for stdio: the child's stderr (piped, so it can be logged with the server key). */
  stderr?: NodeJS.ReadableStream;
  /** Present for stdio, once started. */
  pid?: () => number | null;
  /** Present for stdio: how the child ended ("exited with code 3", "killed by SIGKILL"), once it has. */
  exit?: () => string | undefined;
}

/**
 * fetch with the configured headers. A POST gets a signal of its own that follows the transport's
 * long-lived one only while the request is open: Node's fetch adds an abort listener to the signal
 * it is given and drops it only at garbage collection, so sharing one signal across thousands of
 * POSTs piles up listeners (and MaxListenersExceeded warnings).
 */
function fetchWithHeaders(headers: Record<string, string>): typeof fetch {
  return async (input, init) => {
    const merged = new Headers(init?.headers);
    for (const [name, value] of Object.entries(headers)) if (!merged.has(name)) merged.set(name, value);
    const outer = init?.signal;
    if (!outer || init?.method !== 'POST') return fetch(input, { ...init, headers: merged });
    const own = new AbortController();
    const follow = () => own.abort(outer.reason);
    if (outer.aborted) follow();
    else outer.addEventListener('abort', follow, { once: true });
    try {
      return await fetch(input, { ...init, headers: merged, signal: own.signal });
    } finally {
      outer.removeEventListener('abort', follow);
    }
  };
}

/** How a child ended, as a user reads it: "exited with code 3", "killed by SIGKILL". */
function describeExit(code: number | null, signal: NodeJS.Signals | null): string {
  return code !== null ? `exited with code ${code}` : `killed by ${signal}`;
}

export interface TransportOptions {
  maxMessageBytes?: number;
  /** Remote servers: the stored OAuth login (bearer token, refresh on expiry and on a 401). */
  auth?: StoredTokenAuth;
  /** The connection's logger: told when a child started early is stopped because it was started differently. */
  log?: Logger;
  /** stdio: the `initialize` the connection will send; a child started early is adopted only if it was sent the same or none. */
  initialize?: DownstreamInitializeParams;
}

export function buildTransport(config: ServerConfig, options: TransportOptions = {}): BuiltTransport {
  if (config.transport === 'stdio') {
    // Started early by `serve` (prestart.ts) exactly as it would be started here: adopt that child.
    // The spec (a copy of the environment) is computed only when such a child waits.
    const early = hasPrestarted(config.key) ? claimPrestarted(config.key, stdioSpawnSpec(config), options.log, options.initialize) : undefined;
    if (early) {
      const adopted = new AdoptedStdioTransport(early, options.maxMessageBytes ? { maxBufferSize: options.maxMessageBytes } : {});
      let ended: string | undefined;
      const note = (code: number | null, signal: NodeJS.Signals | null) => {
        ended = describeExit(code, signal);
      };
      if (early.child.exitCode !== null || early.child.signalCode !== null) note(early.child.exitCode, early.child.signalCode);
      else early.child.once('exit', note);
      return { transport: adopted, stderr: adopted.stderr ?? undefined, pid: () => adopted.pid, exit: () => ended };
    }
    const stdio = new StdioClientTransport({
      command: config.command,
      args: config.args,
      // The SDK adds its safe base (PATH, HOME, USER, SHELL, TERM, LOGNAME) to this (spawn-spec.ts).
      env: entryEnvironment(config),
      cwd: config.cwd,
      stderr: 'pipe',
      ...(options.maxMessageBytes && { maxBufferSize: options.maxMessageBytes }),
    });
    // Its line reader is ours (stdio-line-buffer.ts): the SDK's, with answers to the relay lane
    // delivered without a schema run. The transport keeps it in a private field, as the SDK's own;
    // should an SDK release keep it elsewhere, the SDK's reader stays (correct, only slower) and the
    // log says so (test/servers/stdio-line-reader.test.ts fails on such a release).
    const reader = stdio as unknown as { _readBuffer?: unknown };
    if (reader._readBuffer instanceof ReadBuffer) reader._readBuffer = new StdioLineBuffer(options.maxMessageBytes ? { maxBufferSize: options.maxMessageBytes } : {});
    else options.log?.warn({ server: config.key }, "the MCP SDK's stdio transport no longer keeps its line reader where Switchboard replaces it; its own reader is used (answers are schema-checked, a little slower)");
    // The SDK reports only "Connection closed" when a child exits; its exit code is the cause a user
    // needs. The transport keeps the child in a private field, read once right after it spawned.
    let exit: string | undefined;
    const start = stdio.start.bind(stdio);
    stdio.start = async () => {
      await start();
      if (stdio.pid) trackTree(stdio.pid); // killed at our exit if nothing stopped it before
      const child = (stdio as unknown as { _process?: import('node:child_process').ChildProcess })._process;
      child?.once('exit', (code, signal) => {
        exit = describeExit(code, signal);
      });
    };
    return { transport: stdio, stderr: (stdio.stderr ?? undefined) as NodeJS.ReadableStream | undefined, pid: () => stdio.pid, exit: () => exit };
  }
  const url = new URL(config.url);
  const auth = options.auth;
  const fetchImpl = auth ? auth.observe(fetchWithHeaders(config.headers)) : fetchWithHeaders(config.headers);
  const common = { fetch: fetchImpl, ...(auth && { authProvider: auth }) };
  if (config.transport === 'sse') return { transport: new SSEClientTransport(url, common) };
  return { transport: new StreamableHTTPClientTransport(url, common) };
}
