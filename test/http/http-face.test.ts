// The Streamable HTTP face's rules, checked with raw HTTP on 127.0.0.1: session ids, GET stream,
// DELETE, 404 for unknown or ended sessions, 400 for bad input or protocol versions, Host and
// Origin validation, per-server endpoints, health, and idle sessions reaped with their children.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  connectHttp,
  descendants,
  isAlive,
  newClient,
  npmServer,
  startHttpGateway,
  waitFor,
  writeConfig,
  type RunningGateway,
} from '../helpers/gateway.js';

const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw-http-test', version: '1' } },
};
const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { ...HEADERS, ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) });
}

/** Reads the first JSON-RPC message of a JSON or SSE response. */
async function firstMessage(response: Response): Promise<Record<string, any>> {
  const text = await response.text();
  if (response.headers.get('content-type')?.includes('text/event-stream')) {
    const data = text.split('\n').find((line) => line.startsWith('data: ') && line.length > 6);
    return JSON.parse(data!.slice(6));
  }
  return JSON.parse(text);
}

async function openSession(url: string): Promise<string> {
  const response = await post(url, INIT);
  expect(response.status).toBe(200);
  const id = response.headers.get('mcp-session-id');
  expect(id).toBeTruthy();
  const message = await firstMessage(response);
  expect(message.result.serverInfo.name).toMatch(/^switchboard/);
  const initialized = await post(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, { 'mcp-session-id': id!, 'mcp-protocol-version': '2025-11-25' });
  expect(initialized.status).toBe(202);
  return id!;
}

describe('HTTP face', () => {
  let gateway: RunningGateway;
  let mcp: string;

  beforeAll(async () => {
    const config = await writeConfig({ memory: npmServer('memory', [], { MEMORY_FILE_PATH: '/tmp/switchboard-http-test-memory.jsonl' }) });
    gateway = await startHttpGateway(config);
    mcp = `${gateway.url}/mcp`;
  });
  afterAll(async () => gateway?.close());

  it('binds 127.0.0.1 by default and answers /healthz', async () => {
    expect(gateway.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const health = await fetch(`${gateway.url}/healthz`);
    expect(health.status).toBe(200);
    const body = await health.json();
    expect(body.status).toBe('ok');
    expect(body.servers.map((s: { key: string }) => s.key)).toEqual(['memory']);
  });

  it('issues a session id on initialize and serves requests that carry it', async () => {
    const id = await openSession(mcp);
    const response = await post(mcp, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, { 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' });
    expect(response.status).toBe(200);
    const message = await firstMessage(response);
    expect(message.result.tools.map((t: { name: string }) => t.name)).toContain('memory_read_graph');
  });

  it('opens a GET event stream for a session', async () => {
    const id = await openSession(mcp);
    const abort = new AbortController();
    const response = await fetch(mcp, { method: 'GET', headers: { accept: 'text/event-stream', 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' }, signal: abort.signal });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    abort.abort();
  });

  it('answers 404 for an unknown session id and for a session used on another endpoint', async () => {
    const unknown = await post(mcp, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, { 'mcp-session-id': 'no-such-session' });
    expect(unknown.status).toBe(404);
    const id = await openSession(mcp);
    const elsewhere = await post(`${gateway.url}/servers/memory/mcp`, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, { 'mcp-session-id': id });
    expect(elsewhere.status).toBe(404);
  });

  it('ends a session on DELETE; the id is 404 afterwards', async () => {
    const id = await openSession(mcp);
    const deleted = await fetch(mcp, { method: 'DELETE', headers: { 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' } });
    expect(deleted.status).toBe(200);
    const after = await post(mcp, { jsonrpc: '2.0', id: 3, method: 'tools/list' }, { 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' });
    expect(after.status).toBe(404);
  });

  it('answers 400 for an unsupported MCP-Protocol-Version header', async () => {
    const id = await openSession(mcp);
    const response = await post(mcp, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, { 'mcp-session-id': id, 'mcp-protocol-version': '1999-01-01' });
    expect(response.status).toBe(400);
  });

  it('answers 400 for invalid JSON, and for a non-initialize request without a session', async () => {
    const garbage = await post(mcp, '{"jsonrpc": "2.0", "id": ');
    expect(garbage.status).toBe(400);
    expect((await garbage.json()).error.code).toBe(-32700);
    const noSession = await post(mcp, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(noSession.status).toBe(400);
  });

  it('rejects a foreign Host or Origin with 403 and accepts loopback origins', async () => {
    const evilOrigin = await post(mcp, INIT, { origin: 'https://evil.example' });
    expect(evilOrigin.status).toBe(403);
    expect((await evilOrigin.json()).error.message).toContain('allowedOrigins');
    // fetch() does not let us set Host, so speak HTTP/1.1 directly.
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const url = new URL(mcp);
      const req = request({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { ...HEADERS, host: 'evil.example.com' } }, (res) => {
        res.resume();
        resolve(res.statusCode!);
      });
      req.on('error', reject);
      req.end(JSON.stringify(INIT));
    });
    expect(status).toBe(403);
    const localOrigin = await post(mcp, INIT, { origin: 'http://localhost:6274' });
    expect(localOrigin.status).toBe(200);
  });

  it('serves one server unprefixed at /servers/{key}/mcp and /s/{key}/mcp, and 404s an unknown key', async () => {
    for (const path of ['/servers/memory/mcp', '/s/memory/mcp']) {
      const { client, close } = await connectHttp(gateway.url, newClient(), path);
      const { tools } = await client.request({ method: 'tools/list', params: {} }, z.any());
      expect(tools.map((t: { name: string }) => t.name)).toContain('read_graph');
      await close();
    }
    const unknown = await post(`${gateway.url}/servers/nope/mcp`, INIT);
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).error.message).toContain('memory');
  });
});

describe('HTTP face idle reaping', () => {
  it('reaps an idle session together with its downstream connection', async () => {
    const config = await writeConfig(
      { memory: npmServer('memory', [], { MEMORY_FILE_PATH: '/tmp/switchboard-reap-test-memory.jsonl' }) },
      { sessionIdleMs: 1500 },
    );
    const gateway = await startHttpGateway(config);
    try {
      const { client } = await connectHttp(gateway.url, newClient({ roots: {} }));
      client.setRequestHandler('roots/list', async () => ({ roots: [] }));
      await client.request({ method: 'tools/list', params: {} }, z.any());
      const children = await descendants(gateway.child.pid!);
      expect(children.length).toBeGreaterThan(0);
      await waitFor(() => gateway.log.records().some((r) => r.msg === 'session idle; reaped'), 'the session to be reaped', 15_000);
      await waitFor(() => children.every((pid) => !isAlive(pid)), 'the downstream server to stop', 15_000);
      const error = await client.request({ method: 'tools/list', params: {} }, z.any()).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(Error);
    } finally {
      await gateway.close();
    }
  });
});
