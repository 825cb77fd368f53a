// Faithful forwarding through both faces against the real npm servers (everything, filesystem,
// memory): lists, calls, prompts, resources, completion, progress, cancellation, logging,
// subscriptions, sampling and elicitation round trips, capability mirroring, verbatim errors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ProtocolError } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { ClientCapabilities } from '@modelcontextprotocol/client';
import {
  connectHttp,
  connectStdio,
  demoServers,
  newClient,
  npmServer,
  startHttpGateway,
  waitFor,
  writeConfig,
  type ConnectedClient,
  type RunningGateway,
} from '../helpers/gateway.js';

const ANY = z.any();

describe.each(['stdio', 'http'] as const)('gateway over %s', (face) => {
  let config: string;
  let gateway: RunningGateway | undefined;
  const open: ConnectedClient[] = [];

  beforeAll(async () => {
    const { servers } = await demoServers();
    config = await writeConfig(servers);
    if (face === 'http') gateway = await startHttpGateway(config);
  });

  afterAll(async () => {
    await Promise.all(open.map((c) => c.close().catch(() => undefined)));
    await gateway?.close();
  });

  async function connect(capabilities: ClientCapabilities = {}, setup?: (client: ReturnType<typeof newClient>) => void): Promise<ConnectedClient> {
    const client = newClient(capabilities);
    setup?.(client);
    const connected = face === 'stdio' ? await connectStdio(config, client) : await connectHttp(gateway!.url, client);
    open.push(connected);
    return connected;
  }

  function gatewayLog(connected: ConnectedClient) {
    return face === 'stdio' ? connected.log! : gateway!.log;
  }

  it('lists the tools of every server under prefixed names, the original name as title', async () => {
    const { client } = await connect();
    const { tools } = await client.request({ method: 'tools/list', params: {} }, ANY);
    const names = tools.map((t: { name: string }) => t.name);
    expect(names).toContain('everything_echo');
    expect(names).toContain('filesystem_list_directory');
    expect(names).toContain('memory_create_entities');
    for (const name of names) expect(name).toMatch(/^[A-Za-z][A-Za-z0-9_-]{0,47}$/);
    const echo = tools.find((t: { name: string }) => t.name === 'everything_echo');
    expect(echo.title).toBe('Echo Tool'); // the server's own title is kept
    const listDir = tools.find((t: { name: string }) => t.name === 'filesystem_list_directory');
    expect(listDir.title ?? listDir.annotations?.title).toBeTruthy();
    expect(echo.annotations).toEqual({ readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false });
    expect(echo.inputSchema.required).toEqual(['message']);
  });

  it('calls tools on each server and passes results through untouched', async () => {
    const { client } = await connect();
    const echo = await client.request({ method: 'tools/call', params: { name: 'everything_echo', arguments: { message: 'hi' } } }, ANY);
    expect(echo).toEqual({ content: [{ type: 'text', text: 'Echo: hi' }] });
    const structured = await client.request({ method: 'tools/call', params: { name: 'everything_get-structured-content', arguments: { location: 'Chicago' } } }, ANY);
    expect(structured.structuredContent).toBeTruthy();
    const dir = await client.request({ method: 'tools/call', params: { name: 'filesystem_list_directory', arguments: { path: (await client.request({ method: 'tools/call', params: { name: 'filesystem_list_allowed_directories', arguments: {} } }, ANY)).content[0].text.split('\n').at(-1) } } }, ANY);
    expect(JSON.stringify(dir)).toContain('hello.txt');
    const created = await client.request({ method: 'tools/call', params: { name: 'memory_create_entities', arguments: { entities: [{ name: `e-${face}`, entityType: 'test', observations: ['seen'] }] } } }, ANY);
    expect(created.isError).not.toBe(true);
    const image = await client.request({ method: 'tools/call', params: { name: 'everything_get-tiny-image', arguments: {} } }, ANY);
    expect(image.content.some((c: { type: string; data?: string }) => c.type === 'image' && c.data && c.data.length > 100)).toBe(true);
  });

  it('forwards a downstream error with the same code, message and data, without double prefixes', async () => {
    const direct = newClient();
    const server = npmServer('everything');
    await direct.connect(new StdioClientTransport({ ...server, stderr: 'pipe' }));
    const directError = await direct.request({ method: 'prompts/get', params: { name: 'args-prompt', arguments: {} } }, ANY).catch((e: unknown) => e);
    await direct.close();
    expect(directError).toBeInstanceOf(ProtocolError);

    const { client } = await connect();
    const viaGateway = await client.request({ method: 'prompts/get', params: { name: 'everything_args-prompt', arguments: {} } }, ANY).catch((e: unknown) => e);
    expect(viaGateway).toBeInstanceOf(ProtocolError);
    const [a, b] = [directError as ProtocolError, viaGateway as ProtocolError];
    expect(b.code).toBe(a.code);
    expect(b.message).toBe(a.message);
    expect(b.data).toEqual(a.data);
    expect(b.message.match(/MCP error/g)?.length ?? 0).toBeLessThanOrEqual(1);
  });

  it('answers an unknown tool with -32602 naming close matches', async () => {
    const { client } = await connect();
    const error = (await client.request({ method: 'tools/call', params: { name: 'everything_ecko', arguments: {} } }, ANY).catch((e: unknown) => e)) as ProtocolError;
    expect(error.code).toBe(-32602);
    expect(error.message).toContain('everything_echo');
    expect((error.data as { suggestions: string[] }).suggestions[0]).toBe('everything_echo');
  });

  it('lists and gets prompts by their prefixed names', async () => {
    const { client } = await connect();
    const { prompts } = await client.request({ method: 'prompts/list', params: {} }, ANY);
    expect(prompts.map((p: { name: string }) => p.name)).toContain('everything_args-prompt');
    const prompt = await client.request({ method: 'prompts/get', params: { name: 'everything_args-prompt', arguments: { city: 'Paris' } } }, ANY);
    expect(JSON.stringify(prompt.messages)).toContain('Paris');
  });

  it('lists and reads resources and templated resources, routed by URI', async () => {
    const { client } = await connect();
    const { resources } = await client.request({ method: 'resources/list', params: {} }, ANY);
    const first = resources[0];
    expect(first.uri).toMatch(/^demo:\/\//);
    const read = await client.request({ method: 'resources/read', params: { uri: first.uri } }, ANY);
    expect(read.contents[0].uri).toBe(first.uri);
    const { resourceTemplates } = await client.request({ method: 'resources/templates/list', params: {} }, ANY);
    expect(resourceTemplates.map((t: { uriTemplate: string }) => t.uriTemplate)).toContain('demo://resource/dynamic/text/{resourceId}');
    const dynamic = await client.request({ method: 'resources/read', params: { uri: 'demo://resource/dynamic/text/3' } }, ANY);
    expect(dynamic.contents[0].uri).toBe('demo://resource/dynamic/text/3');
    const missing = (await client.request({ method: 'resources/read', params: { uri: 'nowhere://x' } }, ANY).catch((e: unknown) => e)) as ProtocolError;
    expect(missing.code).toBe(-32602);
  });

  it('forwards completion requests for prompt arguments', async () => {
    const { client } = await connect();
    const result = await client.request({ method: 'completion/complete', params: { ref: { type: 'ref/prompt', name: 'everything_completable-prompt' }, argument: { name: 'department', value: 'E' } } }, ANY);
    expect(result.completion.values).toContain('Engineering');
  });

  it('relays progress under the client\u2019s own token and cancels downstream when the client cancels', async () => {
    const { client } = await connect();
    const seen: number[] = [];
    const done = await client.request(
      { method: 'tools/call', params: { name: 'everything_trigger-long-running-operation', arguments: { duration: 1, steps: 3 } } },
      ANY,
      { onprogress: (p) => seen.push(p.progress) },
    );
    expect(done.content[0].text).toContain('Long running operation completed');
    // server-everything may write its last progress notification after the result (seen with a
    // direct client too), so the last one can be dropped by the client; the earlier ones cannot.
    expect(seen.slice(0, 2)).toEqual([1, 2]);
    expect(seen.every((v, i) => i === 0 || v > seen[i - 1]!)).toBe(true);

    const abort = new AbortController();
    const started = Date.now();
    const cancelled = client.request(
      { method: 'tools/call', params: { name: 'everything_trigger-long-running-operation', arguments: { duration: 20, steps: 20 } } },
      ANY,
      { signal: abort.signal, onprogress: () => abort.abort('test cancels') },
    );
    await expect(cancelled).rejects.toBeTruthy();
    expect(Date.now() - started).toBeLessThan(15_000);
    const log = gatewayLog(open.at(-1)!);
    await waitFor(() => log.records().some((r) => r.msg === 'forwarded' && r.name === 'everything_trigger-long-running-operation' && r.status === 'cancelled'), 'a cancelled call in the gateway log');
    // The session keeps working after a cancellation.
    const echo = await client.request({ method: 'tools/call', params: { name: 'everything_echo', arguments: { message: 'still here' } } }, ANY);
    expect(echo.content[0].text).toBe('Echo: still here');
  });

  it('fans out logging/setLevel and relays log messages tagged with the server', async () => {
    const messages: Array<{ level: string; logger?: string }> = [];
    const { client } = await connect({}, (c) => c.setNotificationHandler('notifications/message', (n) => void messages.push(n.params as never)));
    await client.request({ method: 'logging/setLevel', params: { level: 'debug' } }, ANY);
    await client.request({ method: 'tools/call', params: { name: 'everything_toggle-simulated-logging', arguments: {} } }, ANY);
    await waitFor(() => messages.length > 0, 'a log message from server-everything', 30_000);
    expect(messages[0]!.logger?.startsWith('everything')).toBe(true);
    await client.request({ method: 'tools/call', params: { name: 'everything_toggle-simulated-logging', arguments: {} } }, ANY);
  });

  it('relays resource updates to a subscribed client', async () => {
    const updates: string[] = [];
    const { client } = await connect({}, (c) => c.setNotificationHandler('notifications/resources/updated', (n) => void updates.push(n.params.uri)));
    const uri = 'demo://resource/static/document/architecture.md';
    await client.request({ method: 'resources/subscribe', params: { uri } }, ANY);
    await client.request({ method: 'tools/call', params: { name: 'everything_toggle-subscriber-updates', arguments: {} } }, ANY);
    await waitFor(() => updates.includes(uri), 'a resources/updated notification', 20_000);
    await client.request({ method: 'tools/call', params: { name: 'everything_toggle-subscriber-updates', arguments: {} } }, ANY);
    await client.request({ method: 'resources/unsubscribe', params: { uri } }, ANY);
  });

  it('mirrors client capabilities downstream: only a sampling client sees the sampling tool', async () => {
    const bare = await connect();
    const bareTools = (await bare.client.request({ method: 'tools/list', params: {} }, ANY)).tools.map((t: { name: string }) => t.name);
    expect(bareTools).not.toContain('everything_trigger-sampling-request');
    const able = await connect({ sampling: {}, elicitation: { form: {} } }, (c) => {
      c.setRequestHandler('sampling/createMessage', async () => ({ model: 'm', role: 'assistant', content: { type: 'text', text: 'x' } }));
      c.setRequestHandler('elicitation/create', async () => ({ action: 'decline' }));
    });
    const ableTools = (await able.client.request({ method: 'tools/list', params: {} }, ANY)).tools.map((t: { name: string }) => t.name);
    expect(ableTools).toContain('everything_trigger-sampling-request');
    expect(ableTools).toContain('everything_trigger-elicitation-request');
  });

  it('routes a sampling request from the server to the client that made the call', async () => {
    const asked: unknown[] = [];
    const { client } = await connect({ sampling: {} }, (c) =>
      c.setRequestHandler('sampling/createMessage', async (request) => {
        asked.push(request.params);
        return { model: 'stand-in-model', role: 'assistant', content: { type: 'text', text: 'sampled answer' } };
      }),
    );
    const result = await client.request({ method: 'tools/call', params: { name: 'everything_trigger-sampling-request', arguments: { prompt: 'Say hi' } } }, ANY);
    expect(asked).toHaveLength(1);
    expect(JSON.stringify(asked[0])).toContain('Say hi');
    expect(JSON.stringify(result)).toContain('sampled answer');
  });

  it('routes an elicitation request from the server to the client and returns its answer', async () => {
    const { client } = await connect({ elicitation: { form: {} } }, (c) =>
      c.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { name: 'Ada', check: true } })),
    );
    const result = await client.request({ method: 'tools/call', params: { name: 'everything_trigger-elicitation-request', arguments: {} } }, ANY);
    expect(JSON.stringify(result)).toContain('Name: Ada');
  });

  it('routes roots/list from the server to the client that declared roots', async () => {
    const { client } = await connect({ roots: { listChanged: true } }, (c) =>
      c.setRequestHandler('roots/list', async () => ({ roots: [{ uri: 'file:///tmp/switchboard-root', name: 'test root' }] })),
    );
    const result = await client.request({ method: 'tools/call', params: { name: 'everything_get-roots-list', arguments: {} } }, ANY);
    expect(JSON.stringify(result)).toContain('file:///tmp/switchboard-root');
  });

  it('answers ping locally', async () => {
    const { client } = await connect();
    expect(await client.ping()).toEqual({});
  });
});
