// Owns building an SDK client transport from one server's configuration (stdio, Streamable HTTP,
// legacy SSE). Configured headers go on every request; nothing from a connected client is added.
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { StreamableHTTPClientTransport, SSEClientTransport } from '@modelcontextprotocol/client';
import type { Transport } from '@modelcontextprotocol/client';
import type { ServerConfig } from '../config/index.js';

export interface BuiltTransport {
  transport: Transport;
  /** Present for stdio: the child's stderr (piped, so it can be logged with the server key). */
  stderr?: NodeJS.ReadableStream;
  /** Present for stdio, once started. */
  pid?: () => number | null;
}

function fetchWithHeaders(headers: Record<string, string>): typeof fetch {
  return (input, init) => {
    const merged = new Headers(init?.headers);
    for (const [name, value] of Object.entries(headers)) if (!merged.has(name)) merged.set(name, value);
    return fetch(input, { ...init, headers: merged });
  };
}

export function buildTransport(config: ServerConfig, options: { maxMessageBytes?: number } = {}): BuiltTransport {
  if (config.transport === 'stdio') {
    const stdio = new StdioClientTransport({
      command: config.command,
      args: config.args,
      env: config.env,
      cwd: config.cwd,
      stderr: 'pipe',
      ...(options.maxMessageBytes && { maxBufferSize: options.maxMessageBytes }),
    });
    return { transport: stdio, stderr: (stdio.stderr ?? undefined) as NodeJS.ReadableStream | undefined, pid: () => stdio.pid };
  }
  const url = new URL(config.url);
  const fetchImpl = fetchWithHeaders(config.headers);
  if (config.transport === 'sse') return { transport: new SSEClientTransport(url, { fetch: fetchImpl }) };
  return { transport: new StreamableHTTPClientTransport(url, { fetch: fetchImpl }) };
}
