// The early start of `serve --stdio` (src/cli/serve-prestart.ts): the config's only server, and the
// servers clients called in recent runs, are running before the client has sent anything, and the
// first call is answered by that very process (adopted, not started twice); servers nobody called
// stay lazy. A server marked `"lazy": true` is never started early, and nothing is over HTTP. A
// server called lately is listed from the cache: the session's first call reaches it before its
// live listing, which waits for that call's answer (1 s at most) and brings list_changed.
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { connectStdio, descendants, fixtureServer, startHttpGateway, waitFor, writeConfig } from '../helpers/gateway.js';
import { DISCOVER_PARAMS, INITIALIZE_PARAMS, rawStdio, type RawStdioClient } from '../helpers/wire.js';

const ANY = z.any();

function rawServer(name: string) {
  return fixtureServer('raw-server.ts', [`--marker=${name}`], { RAW_SERVER_NAME: name });
}

/** Marker name → pid of the raw servers running under a process. */
async function runningServers(pid: number): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  for (const child of await descendants(pid)) {
    try {
      const marker = readFileSync(`/proc/${child}/cmdline`, 'utf8').split('\0').find((a) => a.startsWith('--marker='));
      if (marker) found.set(marker.slice('--marker='.length), child);
    } catch {
      // gone
    }
  }
  return found;
}

/** What a raw server was sent (`initialize`, `tools/list`, `tools/call`), in order, from its stderr lines in the gateway's log (time: the log's, epoch ms). */
function sentTo(client: RawStdioClient, name: string): Array<{ method: string; body: Record<string, unknown>; time: number }> {
  return client
    .stderr()
    .split('\n')
    .flatMap((line) => {
      try {
        const record = JSON.parse(line) as { msg?: string; time: number };
        const match = record.msg?.startsWith(`[${name}] `) ? /^(initialize|tools\/list|tools\/call) (.*)$/.exec(record.msg.slice(name.length + 3)) : null;
        return match ? [{ method: match[1], body: JSON.parse(match[2]) as Record<string, unknown>, time: record.time }] : [];
      } catch {
        return [];
      }
    });
}

/** The initializes (or tools/lists) a raw server was sent, with their ids and params. */
function initializesOf(client: RawStdioClient, name: string, method = 'initialize'): Array<{ id: unknown; params: { capabilities: unknown; clientInfo: unknown } }> {
  return sentTo(client, name).flatMap((sent) => (sent.method === method ? [sent.body as { id: unknown; params: { capabilities: unknown; clientInfo: unknown } }] : []));
}

const methodsSentTo = (client: RawStdioClient, name: string) => sentTo(client, name).map((sent) => sent.method);
const timesSentTo = (client: RawStdioClient, name: string, method: string) => sentTo(client, name).flatMap((sent) => (sent.method === method ? [sent.time] : []));

/** Waits until a run that ended has written recent-servers.json (at shutdown) with `count` servers. */
async function recentServersWritten(config: string, count: number): Promise<void> {
  const recent = path.join(path.dirname(config), 'data', 'recent-servers.json');
  await waitFor(() => {
    try {
      return Object.keys(JSON.parse(readFileSync(recent, 'utf8')).calledAt).length === count;
    } catch {
      return false;
    }
  }, 'the first run to write recent-servers.json at shutdown');
}

/** The config of one raw server `name` (short: a longer env value is redacted from the log) whose tools are read from a file, after a first run that listed and called it. */
async function calledInAnEarlierRun(name: string): Promise<{ config: string; toolsFile: string }> {
  const config = await writeConfig({});
  const toolsFile = path.join(path.dirname(config), 'tools.json');
  const tool = (tool: string) => ({ name: tool, inputSchema: { type: 'object' } });
  await writeFile(toolsFile, JSON.stringify([tool('echo'), tool('sleep')]));
  await writeConfig({ [name]: fixtureServer('raw-server.ts', [`--marker=${name}`], { RAW_SERVER_NAME: name, RAW_TOOLS_FILE: toolsFile }) }, undefined, path.dirname(config));
  const first = await connectStdio(config);
  try {
    await first.client.request({ method: 'tools/call', params: { name: `${name}_echo`, arguments: {} } }, ANY);
  } finally {
    await first.close();
  }
  await recentServersWritten(config, 1);
  // The server gains a tool after the run that cached its listing.
  await writeFile(toolsFile, JSON.stringify([tool('echo'), tool('sleep'), tool('beta')]));
  return { config, toolsFile };
}

/** A raw stdio client of a gateway whose config has the one server `name`, once that server runs (before anything was sent), and its pid. */
async function gatewayWithOnlyServer(name: string): Promise<{ client: RawStdioClient; early: number }> {
  const client = rawStdio(await writeConfig({ [name]: rawServer(name) }));
  try {
    const early = await waitFor(async () => (await runningServers(client.child.pid!)).get(name), `the only server (${name}) to start before any request`);
    return { client, early };
  } catch (error) {
    await client.close();
    throw error;
  }
}

describe('servers started before the gateway has loaded (serve --stdio)', () => {
  it('starts the only server at once and answers the first call with that same process', { timeout: 60_000 }, async () => {
    // Nothing sent yet: the server runs already.
    const { client, early } = await gatewayWithOnlyServer('only');
    try {
      client.send({ id: 1, method: 'initialize', params: INITIALIZE_PARAMS });
      expect((await client.answer(1)).error).toBeUndefined();
      client.send({ method: 'notifications/initialized' });
      client.send({ id: 2, method: 'tools/call', params: { name: 'only_echo', arguments: { n: 1 } } });
      const call = await client.answer(2, 40_000);
      expect(JSON.parse((call.result as { content: Array<{ text: string }> }).content[0].text)).toEqual({ tool: 'echo', arguments: { n: 1 } });
      expect([...(await runningServers(client.child.pid!))]).toEqual([['only', early]]);
      expect(client.stderr()).toContain('servers started early, before the gateway loaded');
    } finally {
      await client.close();
    }
  });

  it('starts the servers called in a recent run, leaves the others lazy, and never one marked lazy: true', { timeout: 120_000 }, async () => {
    const config = await writeConfig({ a: rawServer('a'), b: rawServer('b'), c: rawServer('c'), d: { ...rawServer('d'), lazy: true } });
    // First run: every server is listed once (cached for the next start); b and d are called.
    const first = await connectStdio(config);
    try {
      await first.client.request({ method: 'tools/list', params: {} }, ANY);
      await first.client.request({ method: 'tools/call', params: { name: 'b_echo', arguments: {} } }, ANY);
      await first.client.request({ method: 'tools/call', params: { name: 'd_echo', arguments: {} } }, ANY);
    } finally {
      await first.close();
    }
    await recentServersWritten(config, 2);

    const second = rawStdio(config);
    try {
      await waitFor(async () => (await runningServers(second.child.pid!)).has('b'), 'b to start before any request');
      second.send({ id: 1, method: 'initialize', params: INITIALIZE_PARAMS });
      await second.answer(1);
      second.send({ method: 'notifications/initialized' });
      second.send({ id: 2, method: 'tools/list', params: {} });
      const names = ((await second.answer(2)).result as { tools: Array<{ name: string }> }).tools.map((t) => t.name);
      expect(names).toEqual(expect.arrayContaining(['a_echo', 'b_echo', 'c_echo', 'd_echo']));
      // The listing came from the cache: a, c and d (lazy: true, though called) were not started.
      expect([...(await runningServers(second.child.pid!)).keys()]).toEqual(['b']);
      const pidOfB = (await runningServers(second.child.pid!)).get('b');
      second.send({ id: 3, method: 'tools/call', params: { name: 'b_echo', arguments: { again: true } } });
      expect((await second.answer(3, 40_000)).error).toBeUndefined();
      expect((await runningServers(second.child.pid!)).get('b')).toBe(pidOfB);
    } finally {
      await second.close();
    }
  });

  // The session's first call goes before the server's listing, whether the connection was still
  // starting when the call came (the listing follows its `up`) or was up already (the catalog took
  // the cache although the server runs); the live listing follows the call's answer, and the tool
  // the server gained since the cache reaches the client as list_changed.
  for (const when of ['at once after initialized', 'once the connection is up'] as const) {
    it(`gives a server called in a recent run the session's first call before its listing (call sent ${when})`, { timeout: 120_000 }, async () => {
      const { config } = await calledInAnEarlierRun('late');
      const client = rawStdio(config);
      try {
        client.send({ id: 1, method: 'initialize', params: INITIALIZE_PARAMS });
        expect((await client.answer(1)).error).toBeUndefined();
        client.send({ method: 'notifications/initialized' });
        if (when === 'once the connection is up') await waitFor(() => client.stderr().includes('"msg":"connected"'), 'the connection to the early server to be up');
        client.send({ id: 2, method: 'tools/call', params: { name: 'late_echo', arguments: { n: 1 } } });
        const call = await client.answer(2, 40_000);
        expect(JSON.parse((call.result as { content: Array<{ text: string }> }).content[0].text)).toEqual({ tool: 'echo', arguments: { n: 1 } });
        await waitFor(() => client.messages.some((m) => m.method === 'notifications/tools/list_changed'), 'list_changed after the live listing');
        // Started early with the client's handshake only: no early listing, and the call came first.
        expect(methodsSentTo(client, 'late')).toEqual(['initialize', 'tools/call', 'tools/list']);
        expect(initializesOf(client, 'late', 'tools/list')).toEqual([{ id: expect.any(Number), params: {} }]);
        client.send({ id: 3, method: 'tools/list', params: {} });
        const names = ((await client.answer(3)).result as { tools: Array<{ name: string }> }).tools.map((t) => t.name);
        expect(names.sort()).toEqual(['late_beta', 'late_echo', 'late_sleep']);
      } finally {
        await client.close();
      }
    });
  }

  // The live listing waits for the first call's answer, but not for a long call: 1 s at the most.
  for (const { ms, listed } of [{ ms: 600, listed: 'after the call is answered' }, { ms: 4000, listed: 'about 1 s into a longer call' }] as const) {
    it(`lists a server served from the cache live ${listed}`, { timeout: 120_000 }, async () => {
      const { config } = await calledInAnEarlierRun('late');
      const client = rawStdio(config);
      try {
        client.send({ id: 1, method: 'initialize', params: INITIALIZE_PARAMS });
        expect((await client.answer(1)).error).toBeUndefined();
        client.send({ method: 'notifications/initialized' });
        client.send({ id: 2, method: 'tools/call', params: { name: 'late_sleep', arguments: { ms } } });
        await client.answer(2, 40_000);
        const [calledAt] = timesSentTo(client, 'late', 'tools/call');
        const [listedAt] = await waitFor(() => timesSentTo(client, 'late', 'tools/list').length > 0 && timesSentTo(client, 'late', 'tools/list'), 'the live listing');
        // Log times of the server's lines as the gateway read them; loose bounds for a busy machine (an
        // immediate listing comes ~1 ms after the call).
        if (ms === 600) expect(listedAt - calledAt).toBeGreaterThanOrEqual(300);
        else {
          expect(listedAt - calledAt).toBeGreaterThanOrEqual(500);
          expect(listedAt - calledAt).toBeLessThan(ms - 1000);
        }
      } finally {
        await client.close();
      }
    });
  }

  it('sends the server the client\'s handshake while the gateway loads, once, with the capabilities the session mirrors', { timeout: 60_000 }, async () => {
    const { client } = await gatewayWithOnlyServer('hello');
    try {
      // elicitation {} reads as form elicitation; roots and sampling keep only what the SDK knows.
      const capabilities = { roots: { listChanged: true, unknownFlag: 1 }, elicitation: {}, sampling: { tools: {}, other: true }, experimental: { x: {} } };
      client.send({ id: 1, method: 'initialize', params: { ...INITIALIZE_PARAMS, capabilities } });
      expect((await client.answer(1)).error).toBeUndefined();
      client.send({ method: 'notifications/initialized' });
      client.send({ id: 2, method: 'tools/call', params: { name: 'hello_echo', arguments: { n: 2 } } });
      expect((await client.answer(2, 40_000)).error).toBeUndefined();
      const sent = await waitFor(() => initializesOf(client, 'hello').length > 0 && initializesOf(client, 'hello'), 'the server\'s initialize line in the log');
      expect(sent).toEqual([
        {
          id: 'switchboard-early-initialize',
          params: { protocolVersion: '2025-11-25', capabilities: { roots: { listChanged: true }, elicitation: { form: {} }, sampling: { tools: {} } }, clientInfo: { name: 'switchboard', version: expect.any(String) } },
        },
      ]);
      // ... and one tools/list: the early one when the server answered initialize before the gateway
      // had loaded (the connection's listing got its answer), else the connection's own (a loaded
      // machine: the early handshake stopped at initialize when the connection adopted the server).
      expect(initializesOf(client, 'hello', 'tools/list')).toEqual([{ id: expect.toSatisfy((id: unknown) => id === 'switchboard-early-tools-list' || typeof id === 'number'), params: {} }]);
      expect(client.stderr()).toContain('"initializedEarly":["hello"]');
      expect(client.stderr()).not.toContain('initialized for other client capabilities');
    } finally {
      await client.close();
    }
  });

  it('sends nothing early when the client opens otherwise, and keeps the server for the 2025 session a probing client falls back to', { timeout: 60_000 }, async () => {
    const { client, early } = await gatewayWithOnlyServer('later');
    try {
      client.send({ id: 1, method: 'server/discover', params: DISCOVER_PARAMS }); // a 2026-07-28 client's probe
      await client.answer(1);
      client.send({ id: 2, method: 'initialize', params: INITIALIZE_PARAMS }); // ... falling back to a 2025 session
      expect((await client.answer(2)).error).toBeUndefined();
      client.send({ method: 'notifications/initialized' });
      client.send({ id: 3, method: 'tools/call', params: { name: 'later_echo', arguments: {} } });
      expect((await client.answer(3, 40_000)).error).toBeUndefined();
      // One handshake, the connection's own (numbered by its SDK client), none sent early: the probe's
      // connection adopted the early server, and the 2025 session that followed uses the same one.
      expect(initializesOf(client, 'later')).toEqual([{ id: expect.any(Number), params: expect.objectContaining({ capabilities: {} }) }]);
      expect(client.stderr()).not.toContain('initializedEarly');
      expect((await runningServers(client.child.pid!)).get('later')).toBe(early);
    } finally {
      await client.close();
    }
  });

  it('starts nothing early over HTTP', { timeout: 60_000 }, async () => {
    const config = await writeConfig({ only: rawServer('only-http') });
    const gateway = await startHttpGateway(config);
    try {
      await waitFor(() => gateway.log.records().some((r) => r.msg === 'listening'), 'the HTTP face to listen');
      expect(gateway.log.records().some((r) => r.msg === 'servers started early, before the gateway loaded')).toBe(false);
    } finally {
      await gateway.close();
    }
  });
});
