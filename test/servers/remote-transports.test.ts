// Remote downstreams: the gateway reaches server-everything over Streamable HTTP and over legacy
// SSE, sends the configured headers (with ${VAR} expanded) and never a client's own credentials.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { stopProcess } from '../helpers/conformance.js';
import { connectStdio, freePort, newClient, npmServer, startHttpGateway, waitFor, writeConfig, REPO } from '../helpers/gateway.js';

const ANY = z.any();

async function startEverything(mode: 'sse' | 'streamableHttp'): Promise<{ port: number; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, [npmServer('everything').args[0]!, mode], { cwd: REPO, env: { ...process.env, PORT: String(port) }, stdio: ['pipe', 'pipe', 'pipe'] });
  await waitFor(async () => {
    try {
      await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(500) });
      return true;
    } catch {
      return false;
    }
  }, `server-everything (${mode}) on ${port}`, 60_000);
  return { port, child };
}

/** A loopback HTTP proxy that records the headers of every request before passing it on. */
async function recordingProxy(targetPort: number): Promise<{ port: number; seen: IncomingHttpHeaders[]; server: Server }> {
  const seen: IncomingHttpHeaders[] = [];
  const server = createServer((req, res) => {
    seen.push(req.headers);
    const upstream = httpRequest({ host: '127.0.0.1', port: targetPort, path: req.url, method: req.method, headers: { ...req.headers, host: `127.0.0.1:${targetPort}` } }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, seen, server };
}

describe('remote downstream servers', () => {
  let http: { port: number; child: ChildProcess };
  let sse: { port: number; child: ChildProcess };
  let proxy: Awaited<ReturnType<typeof recordingProxy>>;

  beforeAll(async () => {
    [http, sse] = await Promise.all([startEverything('streamableHttp'), startEverything('sse')]);
    proxy = await recordingProxy(http.port);
  });
  afterAll(async () => {
    proxy?.server.close();
    proxy?.server.closeAllConnections();
    await Promise.all([http && stopProcess(http.child), sse && stopProcess(sse.child)]);
  });

  it('lists and calls tools of a Streamable HTTP server and a legacy SSE server', async () => {
    const config = await writeConfig({
      remote: { type: 'http', url: `http://127.0.0.1:${http.port}/mcp` },
      legacy: { type: 'sse', url: `http://127.0.0.1:${sse.port}/sse` },
    });
    const { client, close } = await connectStdio(config);
    try {
      const names = (await client.request({ method: 'tools/list', params: {} }, ANY)).tools.map((t: { name: string }) => t.name);
      expect(names).toContain('remote_echo');
      expect(names).toContain('legacy_echo');
      for (const name of ['remote_echo', 'legacy_echo']) {
        const result = await client.request({ method: 'tools/call', params: { name, arguments: { message: name } } }, ANY);
        expect(result.content[0].text).toBe(`Echo: ${name}`);
      }
    } finally {
      await close();
    }
  });

  it('sends configured headers with ${VAR} expanded, and never the client\u2019s Authorization', async () => {
    process.env.SWITCHBOARD_TEST_TOKEN = 'configured-secret';
    const config = await writeConfig({
      proxied: { type: 'http', url: `http://127.0.0.1:${proxy.port}/mcp`, headers: { 'X-Api-Key': '${SWITCHBOARD_TEST_TOKEN}' } },
    });
    const gateway = await startHttpGateway(config);
    try {
      const client = newClient();
      const transport = new StreamableHTTPClientTransport(new URL(`${gateway.url}/mcp`), { requestInit: { headers: { Authorization: 'Bearer client-token-must-not-leak' } } });
      await client.connect(transport);
      const result = await client.request({ method: 'tools/call', params: { name: 'proxied_echo', arguments: { message: 'through' } } }, ANY);
      expect(result.content[0].text).toBe('Echo: through');
      await client.close();
      expect(proxy.seen.length).toBeGreaterThan(0);
      for (const headers of proxy.seen) {
        expect(headers['x-api-key']).toBe('configured-secret');
        expect(headers.authorization).toBeUndefined();
      }
      expect(gateway.log.text()).not.toContain('configured-secret');
    } finally {
      await gateway.close();
    }
  });
});
