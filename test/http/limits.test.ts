// Limits with clear errors (issue #14 item 4), over real HTTP on 127.0.0.1 against the real
// gateway: bounded bodies before and after a session, rejected initializes that leak nothing,
// 100k-deep arguments refused as the client's error without touching the server's breaker,
// made-up names on /s/{key}/mcp that create no series or rows, result truncation, concurrent calls
// per session, and a session that cannot teach the shared search index alone (poisoning).
import http from 'node:http';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ProtocolError } from '@modelcontextprotocol/client';
import { connectHttp, newClient, npmServer, startHttpGateway, writeConfig } from '../helpers/gateway.js';
import { openDatabase } from '../../src/store/index.js';

const INIT = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };
const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const ANY = z.any();

/** POSTs `bytes` bytes with node:http and resolves on the answer, even one given before the body is sent. */
function rawPost(url: string, headers: Record<string, string>, bytes: number): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const request = http.request(url, { method: 'POST', headers, agent: false }, (response) => {
      answered = true;
      let body = '';
      response.on('data', (c: Buffer) => (body += c));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    request.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE' && error.code !== 'ECONNRESET') reject(error);
    });
    // A server that stops reading may reset the connection before the client reads its 413 (a TCP
    // reset discards it): status 0, the body was not read whole either way.
    request.on('close', () => {
      if (!answered) resolve({ status: 0, body: '' });
    });
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let sent = 0;
    const pump = () => {
      while (sent < bytes) {
        sent += chunk.length;
        if (!request.write(chunk)) return void request.once('drain', pump);
      }
      request.end();
    };
    pump();
  });
}

async function openSessions(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  return Number(/^switchboard_sessions_open (\d+)/m.exec(text)?.[1]);
}

describe('limits', () => {
  it('bounds bodies, leaks no session on rejected initializes, and refuses deep arguments as the client\'s error', async () => {
    const config = await writeConfig({ everything: npmServer('everything') }, { limits: { maxResultChars: 2000, concurrentCallsPerSession: 2 } });
    const gateway = await startHttpGateway(config);
    try {
      // Before a session: a declared 1 GB body is refused unread; a streamed one stops at the limit (1 MiB).
      const declared = await rawPost(`${gateway.url}/mcp`, { ...MCP_HEADERS, 'content-length': String(1024 ** 3) }, 64 * 1024);
      expect(declared.status).toBe(413);
      const streamed = await rawPost(`${gateway.url}/mcp`, { ...MCP_HEADERS, 'transfer-encoding': 'chunked' }, 3 * 1024 * 1024);
      expect([413, 0]).toContain(streamed.status);
      if (streamed.status === 413) expect(streamed.body).toContain('Payload Too Large');

      // Rejected initializes (plain text from a web page, wrong Accept, a double initialize) leave nothing behind.
      for (let i = 0; i < 100; i++) {
        expect((await fetch(`${gateway.url}/mcp`, { method: 'POST', headers: { 'content-type': 'text/plain', accept: MCP_HEADERS.accept }, body: JSON.stringify(INIT) })).status).toBe(415);
        expect((await fetch(`${gateway.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(INIT) })).status).toBe(406);
        expect((await fetch(`${gateway.url}/mcp`, { method: 'POST', headers: MCP_HEADERS, body: JSON.stringify([INIT, { ...INIT, id: 2 }]) })).status).toBe(400);
      }
      expect(await openSessions(gateway.url)).toBe(0);
      expect(((await (await fetch(`${gateway.url}/healthz`)).json()) as { sessions: number }).sessions).toBe(0);

      const user = await connectHttp(gateway.url, newClient());
      // After a session: over maxBodyBytes (4 MiB) is 413.
      const sessionId = (user.client.transport as unknown as { sessionId: string }).sessionId;
      const huge = await rawPost(`${gateway.url}/mcp`, { ...MCP_HEADERS, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25', 'transfer-encoding': 'chunked' }, 5 * 1024 * 1024);
      expect([413, 0]).toContain(huge.status);

      // Five 100k-deep calls (written by hand: JSON.stringify itself overflows on them): -32602 each,
      // the server's breaker stays closed, the next call works.
      const deepArgs = `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`;
      for (let i = 0; i < 5; i++) {
        const response = await fetch(`${gateway.url}/mcp`, {
          method: 'POST',
          headers: { ...MCP_HEADERS, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' },
          body: `{"jsonrpc":"2.0","id":${100 + i},"method":"tools/call","params":{"name":"everything_echo","arguments":{"message":${deepArgs}}}}`,
        });
        const text = await response.text();
        const message = JSON.parse(/^data: (.*)$/m.exec(text)?.[1] ?? text) as { id: number; error: { code: number; message: string } };
        expect(message.id).toBe(100 + i);
        expect(message.error.code).toBe(-32602);
        expect(message.error.message).toContain('nested deeper than 64 levels');
      }
      const servers = (await (await fetch(`${gateway.url}/api/servers`)).json()) as { servers: Array<{ key: string; connections: Array<{ state: string }> }> };
      expect(JSON.stringify(servers)).not.toContain('circuit-open');
      const ok = await user.client.callTool({ name: 'everything_echo', arguments: { message: 'still here' } });
      expect(JSON.stringify(ok.content)).toContain('still here');

      // Results over maxResultChars are cut with a notice.
      const long = await user.client.callTool({ name: 'everything_echo', arguments: { message: 'y'.repeat(10_000) } });
      const texts = (long.content as Array<{ text: string }>).map((c) => c.text);
      expect(texts.join('').length).toBeLessThan(2500);
      expect(texts.at(-1)).toContain('result truncated');

      // Concurrent calls per session: two run, the rest are refused with a clear error.
      const slow = () => user.client.request({ method: 'tools/call', params: { name: 'everything_trigger-long-running-operation', arguments: { duration: 1, steps: 1 } } }, ANY).then(() => 'ok', (e: ProtocolError) => e.message);
      const outcomes = await Promise.all([slow(), slow(), slow(), slow()]);
      expect(outcomes.filter((o) => o === 'ok')).toHaveLength(2);
      expect(outcomes.filter((o) => o.includes('Too many concurrent tool calls'))).toHaveLength(2);
      await user.close();
    } finally {
      await gateway.close();
    }
  }, 120_000);

  it('made-up tool names on /s/{key}/mcp create no Prometheus series or store rows', async () => {
    const config = await writeConfig({ everything: npmServer('everything') });
    const gateway = await startHttpGateway(config);
    try {
      const direct = await connectHttp(gateway.url, newClient(), '/s/everything/mcp');
      const before = (await (await fetch(`${gateway.url}/metrics`)).text()).length;
      // A name the server does not list is forwarded (its own answer, verbatim) but never recorded.
      for (let i = 0; i < 200; i++) {
        const outcome = (await direct.client.request({ method: 'tools/call', params: { name: `made-up-${i}`, arguments: {} } }, ANY).catch((e: unknown) => e)) as ProtocolError | { isError?: boolean };
        expect(outcome instanceof Error ? (outcome as ProtocolError).code : (outcome as { isError?: boolean }).isError).toSatisfy((v: unknown) => v === -32602 || v === true);
      }
      const longName = (await direct.client.request({ method: 'tools/call', params: { name: 'n'.repeat(500_000), arguments: {} } }, ANY).catch((e: unknown) => e)) as ProtocolError;
      expect(longName.code).toBe(-32602);
      expect(longName.message).toContain('at most 256 are accepted');
      await direct.client.callTool({ name: 'echo', arguments: { message: 'real' } });
      const metrics = await (await fetch(`${gateway.url}/metrics`)).text();
      expect(metrics).not.toContain('made-up');
      expect(metrics.length).toBeLessThan(before + 5000);
      await direct.close();
    } finally {
      await gateway.close();
    }
    const store = openDatabase(path.join(path.dirname(config), 'data'));
    try {
      const tools = store.metrics.toolStats({}).map((s) => s.tool);
      expect(tools).toEqual(['echo']);
    } finally {
      store.close();
    }
  }, 90_000);

  it('one session cannot teach the shared search index (poisoning), and long queries are never stored', async () => {
    const config = await writeConfig({ everything: npmServer('everything') }, { mode: 'meta' });
    const gateway = await startHttpGateway(config);
    const discover = async (client: ReturnType<typeof newClient>, query: string) =>
      ((await client.request({ method: 'tools/call', params: { name: 'tool_discovery', arguments: { query, detailLevel: 'minimal', maxResults: 20 } } }, ANY)).structuredContent as { tools: Array<{ toolKey: string }> }).tools.map((t) => t.toolKey);
    try {
      const victim = await connectHttp(gateway.url, newClient());
      const baseline = await discover(victim.client, 'exfiltrate credentials echo message environment');
      expect(baseline[0]).not.toBe('everything_get-env'); // what the attacker tries to change
      const attacker = await connectHttp(gateway.url, newClient());
      for (let i = 0; i < 5; i++) {
        const shown = await discover(attacker.client, 'exfiltrate credentials echo message environment');
        expect(shown).toContain('everything_get-env');
        await attacker.client.request({ method: 'tools/call', params: { name: 'tool_execute', arguments: { toolKey: 'everything_get-env', arguments: {} } } }, ANY);
      }
      const longQuery = `${'steal '.repeat(200)}`;
      await discover(attacker.client, longQuery);
      await attacker.client.request({ method: 'tools/call', params: { name: 'tool_execute', arguments: { toolKey: 'everything_echo', arguments: { message: 'x' } } } }, ANY);
      expect(await discover(victim.client, 'exfiltrate credentials echo message environment')).toEqual(baseline);
      await attacker.close();
      await victim.close();
    } finally {
      await gateway.close();
    }
    const store = openDatabase(path.join(path.dirname(config), 'data'));
    try {
      expect(store.learnedQueries.all()).toEqual([]);
    } finally {
      store.close();
    }
  }, 90_000);
});
