// No token passthrough (issue #14 item 3): a client's Authorization header never reaches a
// downstream server. The downstream is the real conformance fixture over Streamable HTTP on
// 127.0.0.1, behind a small recording proxy that keeps every header the gateway sent it.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { startHttpGateway, writeConfig } from '../helpers/gateway.js';
import { startFixtureHttp } from '../helpers/conformance.js';

/** Forwards every request to `target` and records its headers. */
async function recordingProxy(target: string): Promise<{ url: string; seen: http.IncomingHttpHeaders[]; close(): Promise<void> }> {
  const seen: http.IncomingHttpHeaders[] = [];
  const upstream = new URL(target);
  const server = http.createServer((req, res) => {
    seen.push({ ...req.headers });
    const forward = http.request({ host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: { ...req.headers, host: upstream.host } }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

describe('no token passthrough', () => {
  it('the client\'s bearer token never reaches a downstream HTTP server; configured headers do', async () => {
    const fixture = await startFixtureHttp();
    const proxy = await recordingProxy(fixture.url);
    const token = 'client-secret-token-0123456789abcdef';
    const config = await writeConfig(
      { remote: { type: 'http', url: proxy.url, headers: { 'X-Configured': 'from-config' } } },
      { clients: [{ name: 'app', tokenEnv: 'SB_PASSTHROUGH_TOKEN' }] },
    );
    const gateway = await startHttpGateway(config, [], { SB_PASSTHROUGH_TOKEN: token });
    try {
      const transport = new StreamableHTTPClientTransport(new URL(`${gateway.url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${token}`, 'X-Client-Header': 'client-only' } } });
      const client = new Client({ name: 'passthrough-test', version: '1.0.0' });
      await client.connect(transport);
      const tools = (await client.listTools()).tools.map((t) => t.name);
      expect(tools).toContain('remote_test_simple_text');
      const result = await client.callTool({ name: 'remote_test_simple_text', arguments: {} });
      expect(JSON.stringify(result.content)).toContain('This is a simple text response for testing.');
      await client.close();

      expect(proxy.seen.length).toBeGreaterThan(0);
      for (const headers of proxy.seen) {
        expect(JSON.stringify(headers)).not.toContain(token);
        expect(headers.authorization).toBeUndefined();
        expect(headers['x-client-header']).toBeUndefined();
        expect(headers['x-configured']).toBe('from-config');
      }
    } finally {
      await gateway.close();
      await proxy.close();
      await fixture.close();
    }
  }, 60_000);
});
