// The early handshake of a child started early (src/servers/early-handshake.ts) and the transport
// that adopts it (adopted-transport.ts), with a real child process and a real SDK client: the
// connection's initialize and first tools/list are answered by the server's early answers (the server
// sees each once), a listing that a tools/list_changed followed is asked again, a server without tools
// or one not to be listed early (listEarly: false) gets no early listing, and an initialize that says
// otherwise is refused.
import { describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/client';
import { AdoptedStdioTransport } from '../../src/servers/adopted-transport.js';
import { downstreamInitializeParams, GATEWAY_CLIENT_INFO } from '../../src/servers/downstream-hello.js';
import { claimPrestarted, initializeEarly, prestart } from '../../src/servers/prestart.js';
import { stdioSpawnSpec } from '../../src/servers/spawn-spec.js';
import { waitFor } from '../helpers/gateway.js';

/**
 * A hand-written server: answers initialize (with tools unless NO_TOOLS; ANSWER_AFTER_MS later) and
 * tools/list (tool "first" for its first listing, "second" after), sends tools/list_changed after its
 * first listing when CHANGE is set and a log message after `initialized` when NOTIFY is, and writes
 * every request it gets to stderr as `got <method> <id>`.
 */
const SERVER = `
const rl = require('node:readline').createInterface({ input: process.stdin });
let listings = 0;
const out = (m) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...m }) + '\\n');
rl.on('line', (line) => {
  const m = JSON.parse(line);
  if (m.method) process.stderr.write('got ' + m.method + ' ' + JSON.stringify(m.id) + '\\n');
  if (m.method === 'initialize') setTimeout(() => out({ id: m.id, result: { protocolVersion: m.params.protocolVersion, capabilities: process.env.NO_TOOLS ? {} : { tools: { listChanged: true } }, serverInfo: { name: 's', version: '1' } } }), Number(process.env.ANSWER_AFTER_MS ?? 0));
  if (m.method === 'notifications/initialized' && process.env.NOTIFY) out({ method: 'notifications/message', params: { level: 'info', data: 'hello' } });
  if (m.method === 'tools/list') {
    listings += 1;
    out({ id: m.id, result: { tools: [{ name: listings === 1 ? 'first' : 'second', inputSchema: { type: 'object' } }] } });
    if (listings === 1 && process.env.CHANGE) out({ method: 'notifications/tools/list_changed' });
  }
});
rl.on('close', () => process.exit(0));
`;

const BARE = downstreamInitializeParams({});

/** Starts the server early, begins its handshake, and waits until it has answered what it was sent. */
async function earlyServer(key: string, env: Record<string, string>, expectedRequests: number, options: { listEarly?: boolean } = {}) {
  const spec = stdioSpawnSpec({ command: process.execPath, args: ['-e', SERVER, key], env });
  const entry = prestart(key, spec, options);
  let stderr = '';
  entry.child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk));
  expect(initializeEarly(BARE)).toEqual([key]);
  await waitFor(() => stderr.split('\n').filter(Boolean).length >= expectedRequests, `the server to get ${expectedRequests} early request(s)`);
  // Its answers to them (written right after each line) reach the pipe and the early reader.
  await new Promise((resolve) => setTimeout(resolve, 250));
  return { spec, requests: () => stderr.split('\n').filter(Boolean) };
}

async function adoptAndConnect(key: string, spec: ReturnType<typeof stdioSpawnSpec>) {
  const entry = claimPrestarted(key, spec, undefined, BARE);
  expect(entry).toBeDefined();
  const transport = new AdoptedStdioTransport(entry!);
  const client = new Client({ ...GATEWAY_CLIENT_INFO }, { capabilities: {} });
  await client.connect(transport, { timeout: 10_000 });
  return client;
}

describe('the early handshake of a server started early', () => {
  it('answers the connection\'s initialize and first tools/list with the server\'s early answers', { timeout: 30_000 }, async () => {
    const { spec, requests } = await earlyServer('early-a', {}, 3);
    const client = await adoptAndConnect('early-a', spec);
    expect(client.getServerVersion()).toEqual({ name: 's', version: '1' });
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['first']);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['second']); // the next one goes to the server
    expect(requests()).toEqual(['got initialize "switchboard-early-initialize"', 'got notifications/initialized undefined', 'got tools/list "switchboard-early-tools-list"', expect.stringMatching(/^got tools\/list \d+$/)]);
    await client.close();
  });

  it('asks again when the server changed its tools after the early listing', { timeout: 30_000 }, async () => {
    const { spec, requests } = await earlyServer('early-b', { CHANGE: '1' }, 3);
    const client = await adoptAndConnect('early-b', spec);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['second']);
    expect(requests().filter((r) => r.startsWith('got tools/list'))).toHaveLength(2);
    await client.close();
  });

  it('lists nothing early from a server without tools, and the connection says initialized itself', { timeout: 30_000 }, async () => {
    const { spec, requests } = await earlyServer('early-c', { NO_TOOLS: '1' }, 1);
    const client = await adoptAndConnect('early-c', spec);
    await waitFor(() => requests().length === 2, 'the connection\'s initialized');
    expect(requests()).toEqual(['got initialize "switchboard-early-initialize"', 'got notifications/initialized undefined']);
    await client.close();
  });

  it('stops after initialize when the server is not to be listed early: the connection says initialized and lists itself', { timeout: 30_000 }, async () => {
    const { spec, requests } = await earlyServer('early-g', {}, 1, { listEarly: false });
    expect(requests()).toEqual(['got initialize "switchboard-early-initialize"']);
    const client = await adoptAndConnect('early-g', spec);
    expect(client.getServerVersion()).toEqual({ name: 's', version: '1' });
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['first']);
    expect(requests()).toEqual(['got initialize "switchboard-early-initialize"', 'got notifications/initialized undefined', expect.stringMatching(/^got tools\/list \d+$/)]);
    await client.close();
  });

  it('answers from the early handshake when the server answers only after its connection adopted it', { timeout: 30_000 }, async () => {
    const spec = stdioSpawnSpec({ command: process.execPath, args: ['-e', SERVER, 'early-e'], env: { ANSWER_AFTER_MS: '300' } });
    const entry = prestart('early-e', spec);
    let stderr = '';
    entry.child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk));
    expect(initializeEarly(BARE)).toEqual(['early-e']);
    const client = await adoptAndConnect('early-e', spec); // at once: the answer comes while the client waits
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['first']);
    // The early handshake stopped at initialize (adopted before the answer): the connection went on itself.
    await waitFor(() => stderr.split('\n').filter(Boolean).length >= 3, 'the server to log the connection\'s requests');
    expect(stderr.split('\n').filter(Boolean)).toEqual(['got initialize "switchboard-early-initialize"', 'got notifications/initialized undefined', expect.stringMatching(/^got tools\/list \d+$/)]);
    await client.close();
  });

  it('gives the connection what the server sent after its early handshake, after the initialize answer', { timeout: 30_000 }, async () => {
    const { spec } = await earlyServer('early-f', { NOTIFY: '1' }, 3);
    const entry = claimPrestarted('early-f', spec, undefined, BARE)!;
    const client = new Client({ ...GATEWAY_CLIENT_INFO }, { capabilities: {} });
    const heard: unknown[] = [];
    client.fallbackNotificationHandler = async (notification) => void heard.push(notification.params);
    await client.connect(new AdoptedStdioTransport(entry), { timeout: 10_000 });
    await waitFor(() => heard.length > 0, 'the log message the server sent after its early initialized');
    expect(heard).toEqual([{ level: 'info', data: 'hello' }]);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['first']);
    await client.close();
  });

  it('refuses a connection whose initialize says otherwise', { timeout: 30_000 }, async () => {
    const { spec } = await earlyServer('early-d', {}, 3);
    // Adopted as bare, but the client declares roots: the transport refuses its initialize.
    const entry = claimPrestarted('early-d', spec, undefined, BARE)!;
    const client = new Client({ ...GATEWAY_CLIENT_INFO }, { capabilities: { roots: {} } });
    await expect(client.connect(new AdoptedStdioTransport(entry), { timeout: 10_000 })).rejects.toThrow(/another initialize than this connection's/);
    entry.child.stdin!.end();
  });
});
