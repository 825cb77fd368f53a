// Instant answers on real clients' clocks: a 2026-07-28 client's `server/discover` probe gets the
// error a 2025-era server gives (so it falls back to initialize at once), and discover and
// initialize are answered without starting any downstream, on both faces, with ten cold servers
// configured: Claude-Code-like clients (probe, error, initialize) and Copilot-CLI-like clients
// (probe, ~0.58 s, initialize anyway: the late answer must not come after the initialize's).
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { CLI, REPO, dataDirFor, descendants, fixtureServer, startHttpGateway, waitFor, writeConfig } from '../helpers/gateway.js';
import { DISCOVER_PARAMS, INITIALIZE_PARAMS, post, rawStdio } from '../helpers/wire.js';

const run = promisify(execFile);
const COPILOT_PROBE_WAIT_MS = 580;
/** Loose sanity bound (the target is 50 ms; bench/instant-answers.mjs measures it). */
const FAST_MS = 1000;

async function tenColdServers(): Promise<string> {
  return writeConfig(Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`s${i}`, fixtureServer('raw-server.ts', [`--marker=cold-${i}`], { RAW_SERVER_NAME: `s${i}` })])));
}

/** Downstream fixture servers running under the gateway (none, while everything is cold). */
async function downstreams(pid: number): Promise<number> {
  let count = 0;
  for (const child of await descendants(pid)) {
    try {
      if (readFileSync(`/proc/${child}/cmdline`, 'utf8').includes('--marker=cold-')) count++;
    } catch {
      // exited meanwhile
    }
  }
  return count;
}

/** Method not found: what a 2025-era server answers (the SDK's own words in a session, ours before one). */
function expectLegacyRefusal(error: { code: number; message: string } | undefined): void {
  expect(error?.code).toBe(-32601);
  expect(error?.message).toMatch(/^Method not found/);
}

describe('stdio face: the 2026-07-28 probe and initialize', () => {
  it('answers a Claude-Code-like client at once: discover gets -32601, initialize follows, nothing started', { timeout: 60_000 }, async () => {
    const config = await tenColdServers();
    const client = rawStdio(config);
    try {
      await waitFor(() => client.stderr().includes('configuration loaded'), 'the gateway to load its configuration');
      const discoverSent = client.send({ id: 1, method: 'server/discover', params: DISCOVER_PARAMS });
      const discover = await client.answer(1);
      expectLegacyRefusal(discover.error);
      const initializeSent = client.send({ id: 2, method: 'initialize', params: INITIALIZE_PARAMS });
      const initialize = await client.answer(2);
      expect(initialize.error).toBeUndefined();
      expect(initialize.result?.protocolVersion).toBe('2025-11-25');
      const discoverMs = discover.at - discoverSent;
      const initializeMs = initialize.at - initializeSent;
      console.log(`stdio, ten cold servers: server/discover answered in ${discoverMs.toFixed(1)} ms, initialize in ${initializeMs.toFixed(1)} ms`);
      expect(discoverMs).toBeLessThan(FAST_MS);
      expect(initializeMs).toBeLessThan(FAST_MS);
      expect(await downstreams(client.child.pid!)).toBe(0);
    } finally {
      await client.close();
    }
  });

  it('serves a Copilot-like client: probe at spawn, initialize 0.58 s later anyway; the probe answer comes first', { timeout: 60_000 }, async () => {
    const config = await tenColdServers();
    const client = rawStdio(config);
    try {
      client.send({ id: 1, method: 'server/discover', params: DISCOVER_PARAMS });
      await new Promise((resolve) => setTimeout(resolve, COPILOT_PROBE_WAIT_MS));
      client.send({ id: 2, method: 'initialize', params: INITIALIZE_PARAMS });
      const initialize = await client.answer(2);
      const discover = await client.answer(1);
      expect(initialize.error).toBeUndefined();
      expect(initialize.result?.protocolVersion).toBe('2025-11-25');
      expectLegacyRefusal(discover.error);
      expect(client.messages.indexOf(discover)).toBeLessThan(client.messages.indexOf(initialize));
      // The session works after the fallback.
      client.send({ method: 'notifications/initialized' });
      client.send({ id: 3, method: 'ping' });
      expect((await client.answer(3)).result).toEqual({});
    } finally {
      await client.close();
    }
  });
});

describe('HTTP face: the 2026-07-28 probe and initialize', () => {
  it('answers discover without a session with a JSON-RPC error, and initialize on /mcp and /s/{key}/mcp from the cache', { timeout: 120_000 }, async () => {
    const config = await tenColdServers();
    // What a previous run leaves behind: every server listed once, its handshake remembered.
    await run(process.execPath, [CLI, 'tools', '--config', config, ...dataDirFor(config)], { cwd: REPO, timeout: 90_000 });
    const gateway = await startHttpGateway(config);
    try {
      const timings: string[] = [];
      const discoverSent = performance.now();
      const discover = await post(`${gateway.url}/mcp`, { id: 'probe-1', method: 'server/discover', params: DISCOVER_PARAMS });
      timings.push(`discover ${(discover.at - discoverSent).toFixed(1)} ms`);
      expect(discover.status).toBe(400);
      expect(discover.body?.id).toBe('probe-1');
      expectLegacyRefusal(discover.body?.error);

      for (const endpoint of ['/mcp', '/s/s3/mcp', '/servers/s7/mcp']) {
        const sent = performance.now();
        const initialize = await post(`${gateway.url}${endpoint}`, { id: 1, method: 'initialize', params: INITIALIZE_PARAMS });
        const ms = initialize.at - sent;
        timings.push(`initialize ${endpoint} ${ms.toFixed(1)} ms`);
        expect(initialize.status).toBe(200);
        expect(initialize.sessionId).toBeTruthy();
        expect(ms).toBeLessThan(FAST_MS);
        // A per-server endpoint mirrors the server as it answered last time (raw-server: tools only).
        if (endpoint !== '/mcp') expect(initialize.body?.result?.capabilities).toEqual({ tools: { listChanged: true } });
        // In a session, a probe is refused the same way, never forwarded to the server.
        const inSession = await post(`${gateway.url}${endpoint}`, { id: 2, method: 'server/discover', params: DISCOVER_PARAMS }, initialize.sessionId!);
        expectLegacyRefusal(inSession.body?.error);
      }
      console.log(`HTTP, ten cold servers (cached): ${timings.join(', ')}`);
      expect(discover.at - discoverSent).toBeLessThan(FAST_MS);
      expect(await downstreams(gateway.child.pid!)).toBe(0);
    } finally {
      await gateway.close();
    }
  });

  it('serves Claude-Code-like (SDK client probing first) and Copilot-like clients on /mcp and a per-server endpoint', { timeout: 60_000 }, async () => {
    const config = await tenColdServers();
    const gateway = await startHttpGateway(config);
    try {
      for (const endpoint of ['/mcp', '/s/s2/mcp']) {
        // Claude-Code-like: the SDK's own negotiation probes with server/discover and falls back.
        const probing = new Client({ name: 'claude-code-like', version: '1.0.0' }, { capabilities: {}, versionNegotiation: { mode: 'auto' } });
        const transport = new StreamableHTTPClientTransport(new URL(`${gateway.url}${endpoint}`));
        const started = performance.now();
        await probing.connect(transport);
        console.log(`HTTP ${endpoint}: probing client connected (probe, fallback, initialize) in ${(performance.now() - started).toFixed(1)} ms`);
        expect(probing.getServerVersion()?.name).toMatch(/^switchboard/);
        // Servers still starting are left out of this first listing (bounded by listTimeoutMs); it answers.
        const { tools } = await probing.listTools();
        expect(Array.isArray(tools)).toBe(true);
        await transport.terminateSession().catch(() => undefined);
        await probing.close();

        // Copilot-like: probe, wait 0.58 s whatever happens, initialize anyway.
        const discoverSent = performance.now();
        const discover = post(`${gateway.url}${endpoint}`, { id: 0, method: 'server/discover', params: DISCOVER_PARAMS });
        await new Promise((resolve) => setTimeout(resolve, COPILOT_PROBE_WAIT_MS));
        const initializeSent = performance.now();
        const initialize = await post(`${gateway.url}${endpoint}`, { id: 1, method: 'initialize', params: INITIALIZE_PARAMS });
        const probe = await discover;
        expect(probe.at).toBeLessThan(initializeSent); // answered before the client gave up waiting
        expectLegacyRefusal(probe.body?.error);
        expect(initialize.status).toBe(200);
        expect(initialize.body?.error).toBeUndefined();
        expect(initialize.body?.result?.protocolVersion).toBe('2025-11-25');
        console.log(`HTTP ${endpoint}: Copilot-like probe answered in ${(probe.at - discoverSent).toFixed(1)} ms, initialize in ${(initialize.at - initializeSent).toFixed(1)} ms`);
      }
    } finally {
      await gateway.close();
    }
  });
});
