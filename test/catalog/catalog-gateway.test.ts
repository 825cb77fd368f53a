import path from 'node:path';
import os from 'node:os';
// The catalog as a client sees it through a real gateway (the built CLI, a real SDK client) in front of
// hand-written raw servers (test/fixtures/raw-server.ts): lenient listing and per-tool repair, the
// length budget, collisions, downstream pagination, and the per-server endpoint's original names.
import { execFile } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Client } from '@modelcontextprotocol/client';
import {
  CLI,
  REPO,
  connectHttp,
  connectStdio,
  fixtureServer,
  newClient,
  startHttpGateway,
  writeConfig,
  type ConnectedClient,
  type RunningGateway,
} from '../helpers/gateway.js';

/** One store for this file's CLI runs, outside $HOME. */
const TEST_DATA_DIR = path.join(os.tmpdir(), `switchboard-cli-data-${process.pid}-${Date.now()}`);

const ANY = z.any();
type Tool = { name: string; title?: string; inputSchema?: Record<string, unknown>; description?: string };

const OBJECT = { type: 'object', properties: { q: { type: 'string' } } };
/** 70 characters: far over the 48-character budget once prefixed. */
const LONG = 'list_all_merge_requests_with_pipelines_and_approvals_for_the_project'.padEnd(70, 'x');
const EXPOSED_NAME = /^[A-Za-z][A-Za-z0-9_-]*$/;

function raw(key: string, tools: unknown[], env: Record<string, string> = {}) {
  return fixtureServer('raw-server.ts', [], { RAW_SERVER_NAME: key, RAW_TOOLS: JSON.stringify(tools), ...env });
}

function tool(name: string, extra: Record<string, unknown> = {}) {
  return { name, description: `The ${name} tool.`, inputSchema: OBJECT, ...extra };
}

const LENIENT_TOOLS = [
  tool('good_one'),
  // Like server-gitlab: an input schema without "type": "object".
  { name: 'gitlab_like', description: 'Schema lacks a type.', inputSchema: { properties: { project_id: { type: 'string' } }, required: ['project_id'] } },
  { description: 'A tool without a name.', inputSchema: { type: 'object' } },
  { name: 'stringy', description: 'Input schema is a string schema.', inputSchema: { type: 'string' } },
  tool('good_two'),
  tool('good_one', { description: 'A second entry with a name already listed.' }),
  null,
];

const PAGED_TOOLS = Array.from({ length: 7 }, (_, i) => tool(`t${i + 1}`));

/** Servers in a fixed order: the order decides who keeps a contested name. */
function catalogServers() {
  return {
    lenient: raw('lenient', LENIENT_TOOLS),
    long: raw('long', [tool(LONG), tool('files.read'), tool('plain')]),
    'x.y': raw('x.y', [tool('z')]),
    x_y: raw('x_y', [tool('z')]),
    alpha: raw('alpha', [tool('echo')]),
    beta: raw('beta', [tool('echo')]),
    paged: raw('paged', PAGED_TOOLS, { RAW_PAGE_SIZE: '2' }),
  };
}

/** Every page of tools/list, raw (no client-side validation). */
async function listAll(client: Client): Promise<Tool[]> {
  const tools: Tool[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 100; page++) {
    const result = await client.request({ method: 'tools/list', params: cursor ? { cursor } : {} }, ANY);
    tools.push(...(result.tools as Tool[]));
    cursor = result.nextCursor;
    if (!cursor) return tools;
  }
  throw new Error('tools/list never ended');
}

/** Calls a raw-server tool and returns what it echoed: the name it received and which server it is. */
async function callEcho(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = await client.request({ method: 'tools/call', params: { name, arguments: args } }, ANY);
  expect(result.isError).not.toBe(true);
  const echoed = JSON.parse(result.content[0].text) as { tool: string; arguments: Record<string, unknown> };
  return { ...echoed, server: result._meta?.server as string };
}

function names(tools: Tool[]): string[] {
  return tools.map((t) => t.name);
}

function runCli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args, ...(args.includes('--data-dir') ? [] : ['--data-dir', TEST_DATA_DIR])], { cwd: REPO, timeout: 60_000, env: { ...process.env, NO_COLOR: '1' } }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

describe('catalog through the gateway (stdio face)', () => {
  let config: string;
  let first: ConnectedClient;
  let firstTools: Tool[];
  const open: ConnectedClient[] = [];

  beforeAll(async () => {
    config = await writeConfig(catalogServers());
    first = await connectStdio(config, newClient());
    open.push(first);
    firstTools = await listAll(first.client);
  });

  afterAll(async () => {
    await Promise.all(open.map((c) => c.close().catch(() => undefined)));
  });

  /** A second, independent gateway run on the same config: its full tool list. */
  async function secondRun(file = config): Promise<{ connected: ConnectedClient; tools: Tool[] }> {
    const connected = await connectStdio(file, newClient());
    open.push(connected);
    return { connected, tools: await listAll(connected.client) };
  }

  it('lists leniently: a schema without type is repaired, nameless and non-object ones are skipped', async () => {
    const lenient = firstTools.filter((t) => t.name.startsWith('lenient_'));
    expect(names(lenient).sort()).toEqual(['lenient_gitlab_like', 'lenient_good_one', 'lenient_good_two']);
    expect(firstTools.some((t) => t.title === 'stringy' || t.name.includes('stringy'))).toBe(false);
    expect(firstTools.some((t) => t.description === 'A tool without a name.')).toBe(false);
    expect(lenient.find((t) => t.name === 'lenient_good_one')!.description).toBe('The good_one tool.'); // the first entry wins

    const gitlab = lenient.find((t) => t.name === 'lenient_gitlab_like')!;
    expect(gitlab.inputSchema).toEqual({ type: 'object', properties: { project_id: { type: 'string' } }, required: ['project_id'] });
    expect(gitlab.title).toBe('gitlab_like');

    // A strict client accepts the repaired list as a whole.
    const strict = await first.client.listTools();
    expect(strict.tools.map((t) => t.name)).toContain('lenient_gitlab_like');

    const echoed = await callEcho(first.client, 'lenient_gitlab_like', { project_id: '42' });
    expect(echoed).toEqual({ tool: 'gitlab_like', arguments: { project_id: '42' }, server: 'lenient' });
    expect((await callEcho(first.client, 'lenient_good_two')).tool).toBe('good_two');
  });

  it('logs a warning naming the server and each repaired or skipped tool', async () => {
    const warnings = first.log!.records().filter((r) => r.level === 40 || r.level === 'warn');
    const about = (needle: string) => warnings.filter((r) => r.server === 'lenient' && String(r.msg).includes(needle));
    expect(about('"gitlab_like"').length).toBeGreaterThan(0);
    expect(about('"stringy"').length).toBeGreaterThan(0);
    expect(about('#2').length).toBeGreaterThan(0); // the nameless one, by position
    expect(about('#6').length).toBeGreaterThan(0); // null
    expect(about('listed twice').length).toBeGreaterThan(0);
    for (const r of [...about('"gitlab_like"'), ...about('"stringy"')]) expect(String(r.msg)).toContain('lenient');
    // Healthy servers produce no warnings.
    expect(warnings.filter((r) => typeof r.server === 'string' && r.server !== 'lenient' && String(r.msg).includes('tool'))).toEqual([]);
  });

  it('switchboard servers --json reports the warnings and the usable tool count', async () => {
    const { code, stdout, stderr } = await runCli(['servers', '--json', '--config', config]);
    expect(code, stderr).toBe(0);
    const rows = JSON.parse(stdout) as Array<{ key: string; tools: number; warnings: string[]; state: string; lastError: string | null }>;
    expect(rows.map((r) => r.key)).toEqual(['lenient', 'long', 'x.y', 'x_y', 'alpha', 'beta', 'paged']);
    const lenient = rows.find((r) => r.key === 'lenient')!;
    expect(lenient.tools).toBe(3);
    expect(lenient.lastError).toBeNull();
    expect(lenient.warnings.some((w) => w.includes('lenient') && w.includes('gitlab_like'))).toBe(true);
    expect(lenient.warnings.some((w) => w.includes('lenient') && w.includes('stringy'))).toBe(true);
    expect(lenient.warnings.some((w) => w.includes('#2'))).toBe(true);
    expect(rows.find((r) => r.key === 'paged')!.tools).toBe(7);
    for (const row of rows.filter((r) => r.key !== 'lenient')) expect(row.warnings).toEqual([]);
  });

  it('shortens a name over the budget with a stable hash, and the call reaches the original tool', async () => {
    const long = firstTools.find((t) => t.title === LONG);
    expect(long).toBeDefined();
    const exposed = long!.name;
    expect(LONG).toHaveLength(70);
    expect(exposed.length).toBeLessThanOrEqual(48);
    expect(exposed).toMatch(EXPOSED_NAME);
    expect(exposed).toMatch(/_[A-Za-z0-9]{4}$/);
    expect(exposed.startsWith('long_list_all_merge_requests')).toBe(true);

    const echoed = await callEcho(first.client, exposed, { q: 'pipelines' });
    expect(echoed).toEqual({ tool: LONG, arguments: { q: 'pipelines' }, server: 'long' });

    // Dots are sanitized in the exposed name; the server still gets its own name.
    const dotted = firstTools.find((t) => t.title === 'files.read')!;
    expect(dotted.name).toBe('long_files_read');
    expect((await callEcho(first.client, dotted.name)).tool).toBe('files.read');

    const { connected, tools } = await secondRun();
    expect(tools.find((t) => t.title === LONG)?.name).toBe(exposed);
    expect((await callEcho(connected.client, exposed)).tool).toBe(LONG);
  });

  it('keeps same-named tools of different servers apart, and resolves a sanitizing collision deterministically', async () => {
    for (const t of firstTools) {
      expect(t.name).toMatch(EXPOSED_NAME);
      expect(t.name.length).toBeLessThanOrEqual(48);
    }
    expect(new Set(names(firstTools)).size).toBe(firstTools.length);

    expect(await callEcho(first.client, 'alpha_echo')).toMatchObject({ tool: 'echo', server: 'alpha' });
    expect(await callEcho(first.client, 'beta_echo')).toMatchObject({ tool: 'echo', server: 'beta' });

    // "x.y" + "z" and "x_y" + "z" both sanitize to x_y_z.
    const contested = names(firstTools).filter((n) => n.startsWith('x_y_z'));
    expect(contested).toHaveLength(2);
    expect(contested).toContain('x_y_z');
    const owners = new Map<string, string>();
    for (const name of contested) {
      const echoed = await callEcho(first.client, name);
      expect(echoed.tool).toBe('z');
      owners.set(name, echoed.server);
    }
    expect(new Set(owners.values())).toEqual(new Set(['x.y', 'x_y']));
    expect(owners.get('x_y_z')).toBe('x.y'); // the first server in the config keeps the plain name
    const hashed = contested.find((n) => n !== 'x_y_z')!;
    expect(hashed).toMatch(/^x_y_z_[A-Za-z0-9]{4,}$/);

    // Another run: the same names, the same owners.
    const { connected, tools } = await secondRun();
    expect(names(tools)).toEqual(names(firstTools));
    for (const [name, server] of owners) expect((await callEcho(connected.client, name)).server).toBe(server);
  });

  it('resolves a collision made by the separator ("a-b" + "c" vs "a" + "b-c" with separator "-")', async () => {
    const file = await writeConfig({ 'a-b': raw('a-b', [tool('c')]), a: raw('a', [tool('b-c')]) }, { separator: '-' });
    const runs: Array<Map<string, string>> = [];
    for (let run = 0; run < 2; run++) {
      const { connected, tools } = await secondRun(file);
      expect(tools).toHaveLength(2);
      const [one, two] = names(tools);
      expect(one).not.toBe(two);
      const owners = new Map<string, string>();
      for (const t of tools) {
        expect(t.name).toMatch(/^a-b-c(-[A-Za-z0-9]{4,})?$/);
        const echoed = await callEcho(connected.client, t.name);
        owners.set(t.name, `${echoed.server}/${echoed.tool}`);
      }
      expect(new Set(owners.values())).toEqual(new Set(['a-b/c', 'a/b-c']));
      expect(owners.get('a-b-c')).toBe('a-b/c');
      runs.push(owners);
      await connected.close();
    }
    expect([...runs[1]]).toEqual([...runs[0]]);
  });

  it('collects every page of a downstream server that paginates', async () => {
    const paged = names(firstTools).filter((n) => n.startsWith('paged_'));
    expect(paged).toEqual(PAGED_TOOLS.map((t) => `paged_${t.name}`));
    expect((await callEcho(first.client, 'paged_t7')).tool).toBe('t7');
  });
});

describe('per-server endpoint (HTTP face)', () => {
  let gateway: RunningGateway;
  const open: ConnectedClient[] = [];

  beforeAll(async () => {
    gateway = await startHttpGateway(await writeConfig(catalogServers()));
  });

  afterAll(async () => {
    await Promise.all(open.map((c) => c.close().catch(() => undefined)));
    await gateway?.close();
  });

  async function connect(endpoint: string): Promise<Client> {
    const connected = await connectHttp(gateway.url, newClient(), endpoint);
    open.push(connected);
    return connected.client;
  }

  it('lists original names, unprefixed and untruncated, and calls them by those names', async () => {
    const client = await connect('/servers/long/mcp');
    const tools = await listAll(client);
    expect(names(tools)).toEqual([LONG, 'files.read', 'plain']);
    expect(await callEcho(client, LONG, { q: 1 })).toEqual({ tool: LONG, arguments: { q: 1 }, server: 'long' });
    expect(await callEcho(client, 'files.read')).toMatchObject({ tool: 'files.read', server: 'long' });
  });

  it('serves a server whose key has a dot, and the short /s/ alias', async () => {
    const dotted = await connect('/servers/x.y/mcp');
    expect(names(await listAll(dotted))).toEqual(['z']);
    expect(await callEcho(dotted, 'z')).toMatchObject({ tool: 'z', server: 'x.y' });

    const underscored = await connect('/s/x_y/mcp');
    expect(names(await listAll(underscored))).toEqual(['z']);
    expect(await callEcho(underscored, 'z')).toMatchObject({ tool: 'z', server: 'x_y' });
  });

  it('applies the same repairs and collects every downstream page', async () => {
    const lenient = await connect('/servers/lenient/mcp');
    const tools = await listAll(lenient);
    expect(names(tools)).toEqual(['good_one', 'gitlab_like', 'good_two']);
    expect(tools[1].inputSchema?.type).toBe('object');
    expect(await callEcho(lenient, 'gitlab_like', { project_id: '7' })).toMatchObject({ tool: 'gitlab_like', server: 'lenient' });

    const paged = await connect('/servers/paged/mcp');
    expect(names(await listAll(paged))).toEqual(PAGED_TOOLS.map((t) => t.name));
  });

  it('answers an unknown original name with the server\'s own error, verbatim', async () => {
    const client = await connect('/servers/alpha/mcp');
    const error = await client.request({ method: 'tools/call', params: { name: 'no_such_tool', arguments: {} } }, ANY).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: -32602, data: { name: 'no_such_tool' } });
    expect(String((error as Error).message)).toContain('Unknown tool: no_such_tool');
  });
});
