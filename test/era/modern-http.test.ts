// The HTTP face serves 2026-07-28 clients next to 2025 sessions: an SDK v2 client pinned to the
// modern era against the aggregate /mcp and a per-server endpoint (real npm servers downstream),
// results with resultType, Mcp-Method/Mcp-Name checked, `_meta` of a call passed on, toolsets and
// modes by URL and query without a session, equip/unequip refused to a modern client, and the
// 2025-only switch (--inbound-era legacy) answering the probe the 2025 way.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import path from 'node:path';
import { dataDirFor, npmServer, startHttpGateway, tempDir, writeConfig, type RunningGateway } from '../helpers/gateway.js';
import { DISCOVER_PARAMS, INITIALIZE_PARAMS, post, postModern } from '../helpers/wire.js';
import { runCli } from '../cli/run-cli.js';

function modernClient(): Client {
  return new Client({ name: 'modern-test', version: '1.0.0' }, { capabilities: {}, versionNegotiation: { mode: { pin: '2026-07-28' } } });
}

async function connectModern(url: string): Promise<Client> {
  const client = modernClient();
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

function text(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] }).content ?? [];
  return content.map((c) => c.text ?? '').join('\n');
}

describe('HTTP face, 2026-07-28 requests', () => {
  let gateway: RunningGateway;
  let config: string;
  const open: Client[] = [];

  beforeAll(async () => {
    const scratch = await tempDir('switchboard-era-');
    config = await writeConfig({ everything: npmServer('everything'), memory: npmServer('memory', [], { MEMORY_FILE_PATH: path.join(scratch, 'memory.jsonl') }) });
    const saved = await runCli(['toolset', 'create', 'kit', 'everything.echo', 'memory.read_graph', '--config', config], dataDirFor(config)[1]!);
    expect(saved.code, saved.stderr).toBe(0);
    gateway = await startHttpGateway(config);
  }, 120_000);

  afterAll(async () => {
    await Promise.all(open.map((c) => c.close().catch(() => undefined)));
    await gateway?.close();
  });

  it('serves an SDK v2 modern client on /mcp: discover, namespaced tools, a call, prompts and resources', { timeout: 90_000 }, async () => {
    const client = await connectModern(`${gateway.url}/mcp`);
    open.push(client);
    expect(client.getProtocolEra()).toBe('modern');
    expect(client.getServerVersion()?.name).toBe('switchboard');
    expect(client.getServerCapabilities()?.tools).toBeDefined();
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toContain('everything_echo');
    expect(names).toContain('memory_read_graph');
    expect(text(await client.callTool({ name: 'everything_echo', arguments: { message: 'modern hello' } }))).toBe('Echo: modern hello');
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toContain('everything_simple-prompt');
    const { resources } = await client.listResources();
    expect(resources.length).toBeGreaterThan(0);
    const read = await client.readResource({ uri: resources[0]!.uri });
    expect(read.contents[0]?.uri).toBe(resources[0]!.uri);
  });

  it('serves a per-server endpoint with the server\'s own names and capabilities', { timeout: 60_000 }, async () => {
    const client = await connectModern(`${gateway.url}/s/memory/mcp`);
    open.push(client);
    expect(client.getServerVersion()?.name).toBe('switchboard/memory');
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('read_graph');
    const result = await client.callTool({ name: 'read_graph', arguments: {} });
    expect(result.structuredContent).toEqual({ entities: [], relations: [] });
  });

  it('puts resultType on results and checks Mcp-Method and Mcp-Name against the body', { timeout: 60_000 }, async () => {
    const listed = await postModern(`${gateway.url}/mcp`, { id: 1, method: 'tools/list' });
    expect(listed.status).toBe(200);
    expect(listed.body?.result?.resultType).toBe('complete');
    const called = await postModern(`${gateway.url}/mcp`, { id: 2, method: 'tools/call', params: { name: 'everything_echo', arguments: { message: 'x' } } });
    expect(called.body?.result?.resultType).toBe('complete');
    // A header that disagrees with the body is refused before anything is forwarded.
    const wrongMethod = await postModern(`${gateway.url}/mcp`, { id: 3, method: 'tools/call', params: { name: 'everything_echo', arguments: { message: 'x' } } }, { 'mcp-method': 'tools/list' });
    expect(wrongMethod.status).toBe(400);
    expect(wrongMethod.body?.error?.code).toBe(-32020);
    const wrongName = await postModern(`${gateway.url}/mcp`, { id: 4, method: 'tools/call', params: { name: 'everything_echo', arguments: { message: 'x' } } }, { 'mcp-name': 'everything_get-sum' });
    expect(wrongName.status).toBe(400);
    expect(wrongName.body?.error?.code).toBe(-32020);
  });

  it('serves toolsets and modes by URL and query without a session; equip is a 2025-session feature', { timeout: 60_000 }, async () => {
    for (const endpoint of ['/toolsets/kit/mcp', '/mcp?toolset=kit']) {
      const client = await connectModern(`${gateway.url}${endpoint}`);
      open.push(client);
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(['everything_echo', 'memory_read_graph']);
    }
    const meta = await connectModern(`${gateway.url}/mcp?mode=meta`);
    open.push(meta);
    const metaTools = (await meta.listTools()).tools.map((t) => t.name);
    expect(metaTools).not.toContain('everything_echo');
    expect(metaTools.length).toBeGreaterThan(0);
    const toolsetMode = await connectModern(`${gateway.url}/mcp?mode=toolset`);
    open.push(toolsetMode);
    const equip = await toolsetMode.callTool({ name: 'equip-toolset', arguments: { name: 'kit' } });
    expect(equip.isError).toBe(true);
    expect(text(equip)).toMatch(/2025-era \(initialize\) session feature.*\/toolsets\/\{name\}\/mcp/);
  });

  it('still serves 2025 sessions next to modern requests: initialize, and a probe without an envelope gets -32601', { timeout: 60_000 }, async () => {
    const initialize = await post(`${gateway.url}/mcp`, { id: 1, method: 'initialize', params: INITIALIZE_PARAMS });
    expect(initialize.status).toBe(200);
    expect(initialize.body?.result?.protocolVersion).toBe('2025-11-25');
    const inSession = await post(`${gateway.url}/mcp`, { id: 2, method: 'tools/list' }, initialize.sessionId!);
    expect(((inSession.body?.result?.tools as unknown[]) ?? []).length).toBeGreaterThan(0);
    expect(inSession.body?.result?.resultType).toBeUndefined();
    const bare = await post(`${gateway.url}/mcp`, { id: 3, method: 'server/discover', params: {} });
    expect(bare.status).toBe(400);
    expect(bare.body?.error?.code).toBe(-32601);
  });
});

describe('HTTP face with --inbound-era legacy', () => {
  it('serves 2025 sessions only: a 2026-07-28 probe gets -32601 with HTTP 400, and an SDK client falls back', { timeout: 90_000 }, async () => {
    const config = await writeConfig({ memory: npmServer('memory', [], { MEMORY_FILE_PATH: path.join(await tempDir(), 'm.jsonl') }) });
    const gateway = await startHttpGateway(config, ['--inbound-era', 'legacy']);
    try {
      const probe = await postModern(`${gateway.url}/mcp`, { id: 'p', method: 'server/discover' });
      expect(probe.status).toBe(400);
      expect(probe.body?.error?.code).toBe(-32601);
      const handBuilt = await post(`${gateway.url}/mcp`, { id: 'q', method: 'server/discover', params: DISCOVER_PARAMS });
      expect(handBuilt.body?.error?.code).toBe(-32601);
      const client = new Client({ name: 'auto', version: '1.0.0' }, { capabilities: {}, versionNegotiation: { mode: 'auto' } });
      const transport = new StreamableHTTPClientTransport(new URL(`${gateway.url}/mcp`));
      await client.connect(transport);
      expect(client.getProtocolEra()).toBe('legacy');
      expect((await client.listTools()).tools.map((t) => t.name)).toContain('memory_read_graph');
      await transport.terminateSession().catch(() => undefined);
      await client.close();
    } finally {
      await gateway.close();
    }
  });
});
