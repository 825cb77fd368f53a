// Log messages on a shared downstream connection are routed by their cause: three real SDK clients at
// once through one real gateway (HTTP face), all declaring no reverse capability, so all share one
// connection to test/fixtures/log-server.ts. A message sent during one client's call reaches that
// client only, although another asked for every level; messages sent while several clients' calls
// run reach no client (the gateway logs them); background messages reach every client that asked.
// Before, every message went to every sharing session that had sent logging/setLevel.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { connectHttp, fixtureServer, newClient, startHttpGateway, waitFor, writeConfig, type ConnectedClient, type RunningGateway } from '../helpers/gateway.js';

const ANY = z.any();
type Client = ReturnType<typeof newClient>;
type Message = { level: string; data?: unknown };

describe('log messages on a shared connection go by cause', { timeout: 120_000 }, () => {
  let gateway: RunningGateway;
  const open: ConnectedClient[] = [];
  const heard = new Map<Client, Message[]>();

  beforeAll(async () => {
    gateway = await startHttpGateway(await writeConfig({ logs: fixtureServer('log-server.ts') }));
  });

  afterAll(async () => {
    await Promise.all(open.map((c) => c.close().catch(() => undefined)));
    await gateway?.close();
  });

  async function connect(level?: string): Promise<Client> {
    const client = newClient({});
    const messages: Message[] = [];
    heard.set(client, messages);
    client.setNotificationHandler('notifications/message', (n) => void messages.push(n.params as Message));
    open.push(await connectHttp(gateway.url, client));
    if (level) await client.request({ method: 'logging/setLevel', params: { level } }, ANY);
    return client;
  }

  const call = (client: Client, tool: string, args: Record<string, unknown>) => client.request({ method: 'tools/call', params: { name: `logs_${tool}`, arguments: args } }, ANY);
  /** The data of the messages a client heard that start with `tag`. */
  const tagged = (client: Client, tag: string) => heard.get(client)!.map((m) => String(m.data)).filter((data) => data.startsWith(tag));

  /**
   * Background messages (nothing of a client running) reach every client in `clients`. The server
   * sends in order and each client's messages travel in order, so once a client heard a tick it
   * has heard everything routed to it before.
   */
  async function backgroundReaches(starter: Client, clients: Client[], tag: string): Promise<void> {
    await call(starter, 'background', { on: true, tag });
    try {
      await waitFor(() => clients.every((c) => tagged(c, tag).length > 0), `background messages "${tag}" at every client that asked for logs`);
    } finally {
      await call(starter, 'background', { on: false });
    }
  }

  it('a message sent during A\'s call reaches A and never B, although B asked for debug; background messages reach both', async () => {
    const a = await connect('debug');
    const b = await connect('debug');
    const quiet = await connect(); // never asks for logs: hears nothing, and starts the background timer
    await call(b, 'log_during', { tag: 'B-own', count: 1 });
    await call(a, 'log_during', { tag: 'A-private', count: 3 });
    // Sent on A's call's own response stream, so they are in before its answer.
    expect(tagged(a, 'A-private')).toEqual(['A-private 1', 'A-private 2', 'A-private 3']);

    await backgroundReaches(quiet, [a, b], 'tick-1');
    expect(tagged(b, 'A-private')).toEqual([]);
    expect(tagged(b, 'B-own')).toEqual(['B-own 1']);
    expect(tagged(a, 'B-own')).toEqual([]);
    expect(heard.get(quiet)).toEqual([]);
  });

  it('each session keeps its own level for the messages its calls cause', async () => {
    const a = await connect('error');
    await connect('debug'); // the server logs at debug for the sharing sessions
    await call(a, 'log_during', { tag: 'A-info', count: 2, level: 'info' });
    await call(a, 'log_during', { tag: 'A-error', count: 1, level: 'error' });
    expect(tagged(a, 'A-error')).toEqual(['A-error 1']);
    expect(tagged(a, 'A-info')).toEqual([]);
  });

  it('concurrent calls of A and B: neither hears the other\'s messages, and what no client may get is in the gateway\'s log', async () => {
    const a = await connect('debug');
    const b = await connect('debug');
    const releaser = await connect();
    const holdA = call(a, 'hold', { tag: 'A-secret', gate: 'g1' });
    // Only A's call runs: its first message is A's.
    await waitFor(() => tagged(a, 'A-secret waiting').length === 1, 'A to hear its own call\'s first message');
    const holdB = call(b, 'hold', { tag: 'B-secret', gate: 'g1' });
    await call(releaser, 'release', { gate: 'g1', holders: 2 });
    await Promise.all([holdA, holdB]);

    await backgroundReaches(releaser, [a, b], 'tick-2');
    expect(tagged(a, 'B-secret')).toEqual([]);
    expect(tagged(b, 'A-secret')).toEqual([]);
    // "B-secret waiting" was sent while A's and B's calls ran; the releases while three calls ran.
    expect(tagged(b, 'B-secret')).toEqual([]);
    expect(tagged(a, 'A-secret')).toEqual(['A-secret waiting']);
    const unrouted = () => gateway.log.records().filter((r) => typeof r.msg === 'string' && r.msg.startsWith('server log message while several sessions had calls running')).map((r) => String(r.data));
    await waitFor(() => ['B-secret waiting', 'A-secret released', 'B-secret released'].every((data) => unrouted().includes(data)), 'the messages no client may get in the gateway\'s log');
    const record = gateway.log.records().find((r) => r.data === 'B-secret waiting')!;
    // A's and B's calls at least; the releaser's call too when the message arrived after it had started.
    expect(record).toMatchObject({ level: 30, logLevel: 'info', server: 'logs' });
    expect(record.callers).toBeGreaterThanOrEqual(2);
  });
});
