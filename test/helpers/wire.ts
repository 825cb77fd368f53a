// Test helpers that speak the MCP wire by hand, the way real clients time it: a raw stdio client on
// the gateway's stdin/stdout (newline-delimited JSON-RPC, each answer stamped with its arrival
// time) and a raw HTTP POST. Used where an SDK client would hide what is on the wire (probes sent
// before initialize, answers that arrive in the wrong order).
import { spawn, type ChildProcess } from 'node:child_process';
import { CLI, REPO, dataDirFor, stopChild, waitFor } from './gateway.js';

export interface WireMessage {
  id?: string | number | null;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
  method?: string;
  /** performance.now() when the line arrived. */
  at: number;
}

export interface RawStdioClient {
  child: ChildProcess;
  stderr(): string;
  messages: WireMessage[];
  send(message: Record<string, unknown>): number;
  /** The answer to request `id` (waits for it). */
  answer(id: string | number, timeoutMs?: number): Promise<WireMessage>;
  close(): Promise<void>;
}

export const INITIALIZE_PARAMS = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'wire-test', version: '1.0.0' } };
/** What a 2026-07-28 client sends first (Claude Code, Copilot CLI): the probe with its `_meta` envelope. */
export const DISCOVER_PARAMS = {
  _meta: {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientInfo': { name: 'wire-test', version: '1.0.0' },
    'io.modelcontextprotocol/clientCapabilities': {},
  },
};

/** Runs `switchboard serve --stdio` and reads its stdout line by line. */
export function rawStdio(config: string, extraArgs: string[] = []): RawStdioClient {
  const child = spawn(process.execPath, [CLI, 'serve', '--stdio', '--config', config, ...dataDirFor(config), '--log-level', 'debug', ...extraArgs], {
    cwd: REPO,
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1' },
  });
  const messages: WireMessage[] = [];
  let err = '';
  let buffered = '';
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
  child.stdout!.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    for (let at = buffered.indexOf('\n'); at !== -1; at = buffered.indexOf('\n')) {
      const line = buffered.slice(0, at);
      buffered = buffered.slice(at + 1);
      if (line.trim()) messages.push({ ...(JSON.parse(line) as Omit<WireMessage, 'at'>), at: performance.now() });
    }
  });
  return {
    child,
    messages,
    stderr: () => err,
    send(message) {
      child.stdin!.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
      return performance.now();
    },
    answer: (id, timeoutMs = 20_000) => waitFor(() => messages.find((m) => m.id === id && (m.result || m.error)), `the answer to request ${id}`, timeoutMs),
    close: () => stopChild(child),
  };
}

/** POSTs one JSON-RPC message to an MCP endpoint (optionally in a session); the reply, parsed from JSON or SSE. */
export async function post(url: string, message: Record<string, unknown>, sessionId?: string): Promise<{ status: number; body: WireMessage | undefined; sessionId: string | null; at: number }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(sessionId && { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' }),
    },
    body: JSON.stringify({ jsonrpc: '2.0', ...message }),
  });
  const text = await response.text();
  const at = performance.now();
  const json = text.startsWith('{') ? text : text.split('\n').find((l) => l.startsWith('data: '))?.slice(6);
  return { status: response.status, body: json ? ({ ...(JSON.parse(json) as object), at } as WireMessage) : undefined, sessionId: response.headers.get('mcp-session-id'), at };
}

/** A complete 2026-07-28 `_meta` envelope, as an SDK v2 client attaches it to every request. */
export const MODERN_META = DISCOVER_PARAMS._meta;

/** POSTs one 2026-07-28 request (no session; envelope, MCP-Protocol-Version and Mcp-Method set unless overridden); the reply parsed. */
export async function postModern(url: string, message: { id: string | number; method: string; params?: Record<string, unknown> }, headers: Record<string, string> = {}): Promise<{ status: number; body: WireMessage | undefined; at: number }> {
  const params = { ...message.params, _meta: { ...MODERN_META, ...(message.params?._meta as object | undefined) } };
  const named = message.params?.name ?? message.params?.uri;
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': message.method, ...(typeof named === 'string' && { 'mcp-name': named }), ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', ...message, params }),
  });
  const text = await response.text();
  const at = performance.now();
  const json = text.startsWith('{') ? text : text.split('\n').find((l) => l.startsWith('data: '))?.slice(6);
  return { status: response.status, body: json ? ({ ...(JSON.parse(json) as object), at } as WireMessage) : undefined, at };
}
