// A stdio client's tool call is answered the moment the server's result is read, before the call's
// bookkeeping (src/gateway/early-answer.ts), and only where nothing after would change the answer.
// One real gateway over stdio in front of two fault servers and the log server: a tool error still
// gets its fallback suggestions, a result over maxResultChars is still cut, a plain result comes back
// as the server sent it, and the log messages a call causes still reach the client before its answer
// (the server writes them and the answer back to back, so the gateway reads them in one turn).
// Over HTTP, two real clients at once share the gateway's connections and use the same request ids
// (each SDK client counts from 0): each gets its own answers, with the same rules.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { connectHttp, connectStdio, fixtureServer, newClient, startHttpGateway, writeConfig, type ConnectedClient, type RunningGateway } from '../helpers/gateway.js';

const ANY = z.any();
type Result = { content?: Array<{ type: string; text?: string }>; isError?: boolean; structuredContent?: Record<string, unknown> };

const SERVERS = { fault: fixtureServer('fault-server.ts'), spare: fixtureServer('fault-server.ts'), logs: fixtureServer('log-server.ts') };
const LIMITS = { limits: { maxResultChars: 2000 } };

describe('a stdio call answered as soon as its result is read', { timeout: 120_000 }, () => {
  let user: ConnectedClient;
  const heard: string[] = [];

  beforeAll(async () => {
    const config = await writeConfig(SERVERS, LIMITS);
    const client = newClient({});
    client.setNotificationHandler('notifications/message', (n) => void heard.push(String((n.params as { data?: unknown }).data)));
    user = await connectStdio(config, client);
    await user.client.request({ method: 'logging/setLevel', params: { level: 'debug' } }, ANY);
  });

  afterAll(async () => user?.close());

  const call = (name: string, args: Record<string, unknown> = {}) => user.client.request({ method: 'tools/call', params: { name, arguments: args } }, ANY) as Promise<Result>;

  it('answers a plain call with the server\'s result as it was sent', async () => {
    for (let i = 0; i < 20; i++) expect(await call('fault_ok', { text: `n${i}` })).toEqual({ content: [{ type: 'text', text: `ok: n${i}` }] });
  });

  it('still adds fallback suggestions to a tool error', async () => {
    const result = await call('fault_tool_error');
    expect(result.isError).toBe(true);
    expect(result.content?.[0]?.text).toBe('deliberate tool error');
    expect(result.content?.at(-1)?.text).toContain('Fallback suggestions: spare_tool_error');
    expect((result.structuredContent?.fallback_suggestions as Array<{ toolKey: string }>)[0]?.toolKey).toBe('spare_tool_error');
  });

  it('still cuts a result over maxResultChars', async () => {
    const result = await call('fault_big', { bytes: 10_000 });
    const texts = (result.content ?? []).map((c) => c.text ?? '');
    expect(texts.join('').length).toBeLessThan(2500);
    expect(texts.at(-1)).toContain('result truncated');
  });

  it('never answers ahead of the log messages the call caused', async () => {
    for (let i = 0; i < 30; i++) {
      await call('logs_log_during', { tag: `run-${i}`, count: 3 });
      // The messages were sent before the answer, on the same pipe: all of them are in by now.
      expect(heard.filter((data) => data.startsWith(`run-${i} `))).toEqual([`run-${i} 1`, `run-${i} 2`, `run-${i} 3`]);
    }
  });
});

describe('HTTP calls of two clients at once answered as soon as their results are read', { timeout: 120_000 }, () => {
  let gateway: RunningGateway;
  const open: ConnectedClient[] = [];

  beforeAll(async () => {
    gateway = await startHttpGateway(await writeConfig(SERVERS, LIMITS));
  });

  afterAll(async () => {
    await Promise.all(open.map((c) => c.close().catch(() => undefined)));
    await gateway?.close();
  });

  async function connect(heard?: string[]): Promise<ConnectedClient> {
    const client = newClient({});
    if (heard) client.setNotificationHandler('notifications/message', (n) => void heard.push(String((n.params as { data?: unknown }).data)));
    const user = await connectHttp(gateway.url, client);
    open.push(user);
    return user;
  }
  const callOn = (user: ConnectedClient, name: string, args: Record<string, unknown> = {}) => user.client.request({ method: 'tools/call', params: { name, arguments: args } }, ANY) as Promise<Result>;

  it('each client gets its own answers, with the same ids, and the same rules as a call answered last', async () => {
    const a = await connect();
    const b = await connect();
    const run = async (user: ConnectedClient, who: string) => {
      for (let i = 0; i < 30; i++) expect(await callOn(user, 'fault_ok', { text: `${who}${i}` })).toEqual({ content: [{ type: 'text', text: `ok: ${who}${i}` }] });
    };
    await Promise.all([run(a, 'A'), run(b, 'B')]);
    const [failed, big] = await Promise.all([callOn(a, 'fault_tool_error'), callOn(b, 'fault_big', { bytes: 10_000 })]);
    expect(failed.isError).toBe(true);
    expect(failed.content?.at(-1)?.text).toContain('Fallback suggestions: spare_tool_error');
    const texts = (big.content ?? []).map((c) => c.text ?? '');
    expect(texts.join('').length).toBeLessThan(2500);
    expect(texts.at(-1)).toContain('result truncated');
  });

  it('never answers ahead of the log messages the call caused', async () => {
    const heard: string[] = [];
    const user = await connect(heard);
    await user.client.request({ method: 'logging/setLevel', params: { level: 'debug' } }, ANY);
    for (let i = 0; i < 20; i++) {
      await callOn(user, 'logs_log_during', { tag: `http-${i}`, count: 3 });
      expect(heard.filter((data) => data.startsWith(`http-${i} `))).toEqual([`http-${i} 1`, `http-${i} 2`, `http-${i} 3`]);
    }
  });
});
