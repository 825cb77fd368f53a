// The activity stream and correlation through the real gateway (HTTP face, server-everything, two
// real clients): GET /api/activity streams each finished call and each server request a call caused,
// with the correlation id its stored row and request log lines carry; filters and the JSON form;
// an elicitation, and a call's progress and its cancellation, share the call's correlation id.
import path from 'node:path';
import { newestRunLogLines } from './log-lines.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { connectHttp, newClient, npmServer, startHttpGateway, waitFor, writeConfig, type ConnectedClient, type RunningGateway } from '../helpers/gateway.js';

const ANY = z.any();
type Event = { type: string; data: Record<string, unknown> };
type Line = Record<string, unknown>;

/** Reads a server-sent event stream in the background into `events`. */
async function openStream(url: string): Promise<{ events: Event[]; close(): void }> {
  const controller = new AbortController();
  const response = await fetch(url, { signal: controller.signal });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('text/event-stream');
  const events: Event[] = [];
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  void (async () => {
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += value;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const type = /^event: (.*)$/m.exec(frame)?.[1];
          const data = /^data: (.*)$/m.exec(frame)?.[1];
          if (type && data) events.push({ type, data: JSON.parse(data) as Record<string, unknown> });
        }
      }
    } catch {
      // aborted by close()
    }
  })();
  return { events, close: () => controller.abort() };
}

describe('activity stream and correlation, two clients', () => {
  let gateway: RunningGateway;
  let dataDir: string;
  const open: ConnectedClient[] = [];

  beforeAll(async () => {
    const config = await writeConfig({ everything: npmServer('everything') });
    dataDir = path.join(path.dirname(config), 'data');
    gateway = await startHttpGateway(config, ['--log-requests']);
  });

  afterAll(async () => {
    await Promise.all(open.map((c) => c.close().catch(() => undefined)));
    await gateway?.close();
  });

  async function connect(capabilities = {}, setup?: (client: ReturnType<typeof newClient>) => void): Promise<ConnectedClient> {
    const client = newClient(capabilities);
    setup?.(client);
    const connected = await connectHttp(gateway.url, client);
    open.push(connected);
    return connected;
  }

  const call = (c: ConnectedClient, name: string, args: Record<string, unknown> = {}) => c.client.request({ method: 'tools/call', params: { name, arguments: args } }, ANY);

  it('streams calls and the server requests they cause, each with the correlation id of its stored row', async () => {
    const stream = await openStream(`${gateway.url}/api/activity`);
    try {
      const a = await connect({ sampling: {} }, (client) =>
        client.setRequestHandler('sampling/createMessage', async () => ({ model: 'stand-in', role: 'assistant', content: { type: 'text', text: 'sampled for A' } })),
      );
      const b = await connect();
      await Promise.all([call(a, 'everything_trigger-sampling-request', { prompt: 'hello' }), call(b, 'everything_echo', { message: 'from B' })]);

      const seen = await waitFor(() => {
        const calls = stream.events.filter((e) => e.type === 'call');
        const requests = stream.events.filter((e) => e.type === 'server-request');
        return calls.length >= 2 && requests.length >= 1 && { calls, requests };
      }, 'two call events and one server-request event');
      const sampling = seen.calls.find((e) => e.data.tool === 'trigger-sampling-request')!;
      const echo = seen.calls.find((e) => e.data.tool === 'echo')!;
      expect(sampling.data).toMatchObject({ kind: 'call', server: 'everything', status: 'ok', durationMs: expect.any(Number), at: expect.any(Number), session: expect.any(String), correlationId: expect.any(String) });
      expect(echo.data).toMatchObject({ kind: 'call', server: 'everything', status: 'ok' });
      expect(echo.data.session).not.toBe(sampling.data.session);
      expect(echo.data.correlationId).not.toBe(sampling.data.correlationId);
      // The sampling request A's call caused carries that call's id, and went to A's session.
      expect(seen.requests[0]!.data).toMatchObject({ kind: 'server-request', server: 'everything', method: 'sampling/createMessage', correlationId: sampling.data.correlationId, session: sampling.data.session });
      // The same id names the stored row (GET /api/calls) and the request log line.
      const stored = (await (await fetch(`${gateway.url}/api/calls?correlationId=${sampling.data.correlationId}`)).json()) as { calls: Line[] };
      expect(stored.calls).toEqual([expect.objectContaining({ server: 'everything', tool: 'trigger-sampling-request', correlationId: sampling.data.correlationId })]);
      const lines = await waitFor(async () => {
        const all = await newestRunLogLines(dataDir);
        return all.some((l) => l.event === 'request' && l.correlationId === sampling.data.correlationId) && all;
      }, 'the request log line of the sampling call');
      expect(lines.find((l) => l.event === 'server-request')).toMatchObject({ method: 'sampling/createMessage', correlationId: sampling.data.correlationId });

      // A viewer that connects later sees the recent past first; filters and the JSON form apply.
      const late = await openStream(`${gateway.url}/api/activity?tool=echo`);
      try {
        const replayed = await waitFor(() => late.events.length >= 1 && late.events, 'the replayed echo call');
        expect(replayed.map((e) => e.data.tool)).toEqual(['echo']);
      } finally {
        late.close();
      }
      const json = (await (await fetch(`${gateway.url}/api/activity?format=json&server=everything&status=ok`)).json()) as { events: Line[] };
      expect(json.events.filter((e) => e.kind === 'call').map((e) => e.tool).sort()).toEqual(['echo', 'trigger-sampling-request']);
      expect(json.events.some((e) => e.kind === 'server-request')).toBe(false); // status and tool filters take calls only
      const byServer = (await (await fetch(`${gateway.url}/api/activity?format=json&server=everything`)).json()) as { events: Line[] };
      expect(byServer.events.map((e) => e.kind).sort()).toEqual(['call', 'call', 'server-request']);
      const none = (await (await fetch(`${gateway.url}/api/activity?format=json&recent=0`)).json()) as { events: Line[] };
      expect(none.events).toEqual([]);
      const bad = await fetch(`${gateway.url}/api/activity?status=maybe`);
      expect(bad.status).toBe(400);
      expect(((await bad.json()) as { error: string }).error).toMatch(/status/);
    } finally {
      stream.close();
    }
  });

  it('an elicitation a call causes shares the call\'s correlation id', async () => {
    const c = await connect({ elicitation: { form: {} } }, (client) =>
      client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { name: 'Ada', check: true } })),
    );
    const result = await call(c, 'everything_trigger-elicitation-request');
    expect(JSON.stringify(result)).toContain('Ada');
    const { events } = (await (await fetch(`${gateway.url}/api/activity?format=json&tool=trigger-elicitation-request`)).json()) as { events: Line[] };
    expect(events).toHaveLength(1);
    const id = events[0]!.correlationId;
    const requests = (await (await fetch(`${gateway.url}/api/activity?format=json&correlationId=${id}`)).json()) as { events: Line[] };
    expect(requests.events.map((e) => `${e.kind}:${e.kind === 'call' ? e.tool : e.method}`).sort()).toEqual(['call:trigger-elicitation-request', 'server-request:elicitation/create']);
    const lines = await waitFor(async () => {
      const all = await newestRunLogLines(dataDir);
      return all.some((l) => l.event === 'server-request' && l.method === 'elicitation/create') && all;
    }, 'the elicitation request line');
    expect(lines.find((l) => l.event === 'server-request' && l.method === 'elicitation/create')!.correlationId).toBe(id);
  });

  it('a call\'s progress and its cancellation share the call\'s correlation id', async () => {
    const c = await connect();
    const abort = new AbortController();
    let progressed = 0;
    const cancelled = c.client
      .request(
        { method: 'tools/call', params: { name: 'everything_trigger-long-running-operation', arguments: { duration: 30, steps: 30 }, _meta: { progressToken: 'cancel-me' } } },
        ANY,
        {
          signal: abort.signal,
          onprogress: () => {
            if (++progressed === 2) abort.abort('the user pressed Esc');
          },
        },
      )
      .then(
        () => 'answered',
        () => 'rejected',
      );
    expect(await cancelled).toBe('rejected');
    expect(progressed).toBeGreaterThanOrEqual(2);

    const event = await waitFor(async () => {
      const { events } = (await (await fetch(`${gateway.url}/api/activity?format=json&tool=trigger-long-running-operation`)).json()) as { events: Line[] };
      return events[0];
    }, 'the cancelled call in the activity feed');
    expect(event).toMatchObject({ kind: 'call', status: 'cancelled', correlationId: expect.any(String) });
    const lines = await waitFor(async () => {
      const all = await newestRunLogLines(dataDir);
      return all.some((l) => l.event === 'request' && l.correlationId === event.correlationId) && all;
    }, 'the request line of the cancelled call');
    const mine = lines.filter((l) => l.module === 'requests' && l.correlationId === event.correlationId);
    expect(mine.filter((l) => l.event === 'progress').length).toBeGreaterThanOrEqual(2);
    expect(mine.find((l) => l.event === 'request')).toMatchObject({ status: 'cancelled', tool: 'everything_trigger-long-running-operation' });
    // Nothing of this call was logged under another id.
    expect(lines.filter((l) => l.module === 'requests' && l.tool === 'everything_trigger-long-running-operation' && l.correlationId !== event.correlationId)).toEqual([]);
  });
});
