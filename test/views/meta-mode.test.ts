// Meta mode through real clients over stdio and HTTP against real npm servers and the fault fixture:
// tools/list is exactly the meta-tools plus keepTools; discovery at each detail level; execute with
// good and bad arguments; capabilities; an unknown key with suggestions; fallback suggestions when a
// tool fails; auto mode switching at maxTools; and token numbers checked against gpt-tokenizer.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { countTokens } from 'gpt-tokenizer';
import { connectHttp, connectStdio, fixtureServer, newClient, npmServer, startHttpGateway, waitFor, writeConfig, type RunningGateway } from '../helpers/gateway.js';
import { runCliJson } from '../cli/run-cli.js';

const ANY = z.any();
type Client = ReturnType<typeof newClient>;
type Json = Record<string, any>;

const META = ['tool_capabilities', 'tool_discovery', 'tool_execute'];
const list = async (client: Client) => (await client.request({ method: 'tools/list', params: {} }, ANY)).tools as Json[];
const names = async (client: Client) => (await list(client)).map((t) => t.name as string).sort();
const call = (client: Client, name: string, args: Record<string, unknown> = {}) => client.request({ method: 'tools/call', params: { name, arguments: args } }, ANY) as Promise<Json>;
const structured = (result: Json) => result.structuredContent as Json;

async function callError(promise: Promise<unknown>): Promise<{ code: number; message: string; data: Json }> {
  try {
    await promise;
  } catch (error) {
    const e = error as { code: number; message: string; data: Json };
    return { code: e.code, message: e.message, data: e.data };
  }
  throw new Error('expected the call to fail');
}

const SERVERS = { everything: npmServer('everything'), fault: fixtureServer('fault-server.ts') };

describe.each(['stdio', 'http'] as const)('meta mode over %s', (transport) => {
  let client: Client;
  let close: () => Promise<void>;
  let gateway: RunningGateway | undefined;

  beforeAll(async () => {
    const config = await writeConfig(SERVERS, { keepTools: ['everything_get-sum'] });
    if (transport === 'stdio') {
      const connected = await connectStdio(config, newClient(), ['--mode', 'meta']);
      client = connected.client;
      close = connected.close;
    } else {
      gateway = await startHttpGateway(config, ['--mode', 'meta']);
      const connected = await connectHttp(gateway.url, newClient());
      client = connected.client;
      close = connected.close;
    }
  });
  afterAll(async () => {
    await close?.();
    await gateway?.close();
  });

  it('lists exactly the meta-tools plus keepTools, described from the live catalog', async () => {
    const tools = await list(client);
    expect(tools.map((t) => t.name).sort()).toEqual([...META, 'everything_get-sum'].sort());
    const discovery = tools.find((t) => t.name === 'tool_discovery')!;
    expect(discovery.description).toContain('everything');
    expect(discovery.description).toContain('fault');
    expect(discovery.description).toMatch(/tool_execute/);
  });

  it('discovers tools at each detail level', async () => {
    const minimal = structured(await call(client, 'tool_discovery', { query: 'echo', detailLevel: 'minimal' }));
    expect(minimal.metadata).toEqual({ query: 'echo', detailLevel: 'minimal', resultCount: minimal.tools.length, searchMode: 'lexical' });
    expect(minimal.tools[0]).toEqual({ toolKey: 'everything_echo', toolName: 'echo', serverName: 'everything' });

    const summary = structured(await call(client, 'tool_discovery', { query: 'echo' }));
    expect(summary.metadata.detailLevel).toBe('summary');
    const first = summary.tools[0];
    expect(Object.keys(first).sort()).toEqual(['description', 'relevance', 'serverName', 'toolKey', 'toolName']);
    expect(first.toolKey).toBe('everything_echo');
    expect(first.relevance).toBe(1);
    for (const t of summary.tools) {
      expect(t.description.length).toBeLessThanOrEqual(150);
      expect(t.relevance).toBeGreaterThan(0);
      expect(t.relevance).toBeLessThanOrEqual(1);
    }

    const full = structured(await call(client, 'tool_discovery', { query: ['add two numbers', 'sum'], detailLevel: 'full', maxResults: 2 }));
    expect(full.tools.length).toBeLessThanOrEqual(2);
    expect(full.tools[0].toolKey).toBe('everything_get-sum');
    expect(full.tools[0].inputSchema.properties).toHaveProperty('a');
    expect(full.metadata.query).toEqual(['add two numbers', 'sum']);

    const scoped = structured(await call(client, 'tool_discovery', { query: 'error', server: 'fault', detailLevel: 'minimal' }));
    expect(scoped.tools.length).toBeGreaterThan(0);
    expect(scoped.tools.every((t: Json) => t.serverName === 'fault')).toBe(true);
  });

  it('executes with good arguments and refuses bad ones with the offending fields', async () => {
    const ok = await call(client, 'tool_execute', { toolKey: 'everything_echo', arguments: { message: 'hello meta' } });
    expect(ok.isError).not.toBe(true);
    expect(JSON.stringify(ok.content)).toContain('hello meta');

    const bad = await call(client, 'tool_execute', { toolKey: 'everything_get-sum', arguments: { a: 'one' } });
    expect(bad.isError).toBe(true);
    const fields = structured(bad).issues.map((i: Json) => i.field).sort();
    expect(fields).toEqual(['a', 'b']);
    expect(structured(bad).schema.properties.a).toBeDefined();
    expect(structured(bad).schema.required).toEqual(['a', 'b']);
    expect(bad.content[0].text).toContain('b is required');

    const sum = await call(client, 'tool_execute', { toolKey: 'everything_get-sum', arguments: { a: 2, b: 3 } });
    expect(JSON.stringify(sum.content)).toContain('5');
  });

  it('describes capabilities: categories with examples, servers with counts and status', async () => {
    const caps = structured(await call(client, 'tool_capabilities'));
    const everything = caps.servers.find((s: Json) => s.server === 'everything');
    expect(everything.tools).toBeGreaterThan(5);
    expect(typeof everything.status).toBe('string');
    expect(caps.categories.reduce((n: number, c: Json) => n + c.count, 0)).toBe(caps.totalTools);
    for (const c of caps.categories) expect(c.examples.length).toBeLessThanOrEqual(3);
    const one = structured(await call(client, 'tool_capabilities', { server: 'fault' }));
    expect(one.servers.map((s: Json) => s.server)).toEqual(['fault']);
  });

  it('answers an unknown key with an actionable error and suggested tools', async () => {
    const error = await callError(call(client, 'tool_execute', { toolKey: 'everything_ecoh', arguments: {} }));
    expect(error.code).toBe(-32602);
    expect(error.message).toContain('Recovery');
    expect(error.data.errorType).toBe('unknown_tool');
    expect(error.data.recovery.length).toBeGreaterThan(0);
    expect(error.data.suggested_tools.map((s: Json) => s.toolKey)).toContain('everything_echo');
  });

  it('adds fallback suggestions when a tool fails (protocol error and isError result)', async () => {
    const error = await callError(call(client, 'tool_execute', { toolKey: 'fault_fail', arguments: {} }));
    expect(error.data.fault).toBe('fail');
    const suggestions = error.data.fallback_suggestions as Json[];
    expect(suggestions.length).toBeGreaterThan(0);
    expect(suggestions.length).toBeLessThanOrEqual(3);
    for (const s of suggestions) {
      expect(s.toolKey).not.toBe('fault_fail');
      expect(Object.keys(s).sort()).toEqual(['reason', 'server', 'similarity', 'success_rate', 'toolKey']);
    }
    const toolError = await call(client, 'tool_execute', { toolKey: 'fault_tool_error', arguments: {} });
    expect(toolError.isError).toBe(true);
    expect(structured(toolError).fallback_suggestions.every((s: Json) => s.toolKey !== 'fault_tool_error')).toBe(true);
  });
});

describe('auto mode', () => {
  it('switches from passthrough to meta when the catalog grows past maxTools, with list_changed', async () => {
    const tools = ['alpha', 'beta', 'add_tool'].map((name) => ({ name, description: `raw ${name}`, inputSchema: { type: 'object', properties: { name: { type: 'string' } } } }));
    const config = await writeConfig({ raw: fixtureServer('raw-server.ts', [], { RAW_TOOLS: JSON.stringify(tools) }) }, { mode: 'auto', maxTools: 3 });
    const client = newClient();
    let changed = 0;
    client.setNotificationHandler('notifications/tools/list_changed', async () => void changed++);
    const connected = await connectStdio(config, client);
    try {
      expect(await names(client)).toEqual(['raw_add_tool', 'raw_alpha', 'raw_beta']);
      await call(client, 'raw_add_tool', { name: 'gamma' });
      await waitFor(() => changed > 0, 'tools/list_changed');
      expect(await names(client)).toEqual(META);
      const found = structured(await call(client, 'tool_discovery', { query: 'gamma', detailLevel: 'minimal' }));
      expect(found.tools[0].toolKey).toBe('raw_gamma');
    } finally {
      await connected.close();
    }
  });
});

describe('token budget', () => {
  it('reports tools/list tokens per mode that match gpt-tokenizer on the real listings, and warns at start', async () => {
    const config = await writeConfig({ everything: npmServer('everything') }, { maxTools: 5 });
    const dataDir = path.join(path.dirname(config), 'cli-data');
    const report = await runCliJson<Json>(['tools', '--tokens', '--json', '--config', config], dataDir);
    expect(report.encoding).toBe('o200k_base');

    const passthrough = await connectStdio(config);
    try {
      const tools = await list(passthrough.client);
      expect(report.passthrough).toEqual({ tools: tools.length, tokens: countTokens(JSON.stringify({ tools })) });
      await waitFor(() => passthrough.log!.records().find((r) => String(r.msg).includes('over budget')), 'the budget warning');
    } finally {
      await passthrough.close();
    }
    const meta = await connectStdio(config, newClient(), ['--mode', 'meta']);
    try {
      const tools = await list(meta.client);
      expect(report.meta).toEqual({ tools: 3, tokens: countTokens(JSON.stringify({ tools })) });
      expect(report.meta.tokens).toBeLessThan(report.passthrough.tokens);
    } finally {
      await meta.close();
    }
  });
});

describe('meta mode, two clients at once', () => {
  it("two clients' first argument checks (ajv loads on first use) run at once, and each gets only its own verdict", { timeout: 120_000 }, async () => {
    const config = await writeConfig(SERVERS, { keepTools: ['everything_get-sum'] });
    const gateway = await startHttpGateway(config, ['--mode', 'meta']);
    const a = await connectHttp(gateway.url, newClient());
    const b = await connectHttp(gateway.url, newClient());
    try {
      // Neither has checked arguments before: both checks wait on the same first load of ajv.
      const [badA, badB, goodB] = await Promise.all([
        call(a.client, 'tool_execute', { toolKey: 'everything_get-sum', arguments: { a: 'one', b: 2 } }),
        call(b.client, 'tool_execute', { toolKey: 'everything_get-sum', arguments: { a: 1 } }),
        call(b.client, 'tool_execute', { toolKey: 'everything_get-sum', arguments: { a: 4, b: 5 } }),
      ]);
      expect(badA.isError).toBe(true);
      expect(structured(badA).issues.map((i: Json) => i.field)).toEqual(['a']);
      expect(badB.isError).toBe(true);
      expect(structured(badB).issues.map((i: Json) => i.field)).toEqual(['b']);
      expect(goodB.isError).not.toBe(true);
      expect(JSON.stringify(goodB.content)).toContain('9');
      expect(JSON.stringify(badA)).not.toContain('"b is required');
    } finally {
      await a.close();
      await b.close();
      await gateway.close();
    }
  });
});
