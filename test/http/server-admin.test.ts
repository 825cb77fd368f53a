// The admin API that changes servers, against a real gateway fronting real npm servers: a server's full tool list
// with what is enabled, choosing tools live and persisted into the config file (a connected MCP client sees the
// change), adding a server (validated, written to the config file, started live) and restarting one.
import { readFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { connectHttp, npmServer, startHttpGateway, waitFor, writeConfig, type ConnectedClient, type RunningGateway } from '../helpers/gateway.js';
import { api } from '../helpers/admin-api.js';

const open: Array<ConnectedClient | RunningGateway> = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close().catch(() => undefined);
});

type ToolsAnswer = { tools: Array<{ name: string; description: string; enabled: boolean }>; enabledTools: string[] | null };
type ServersAnswer = { servers: Array<{ key: string; state: string; connections: Array<{ restarts: number }> }> };

describe('server management routes', () => {
  it('lists, selects (live and persisted), adds and restarts servers', async () => {
    const config = await writeConfig({ everything: npmServer('everything') }, { http: { unauthenticatedAdmin: true } });
    const gateway = await startHttpGateway(config);
    open.push(gateway);
    const client = await connectHttp(gateway.url);
    open.push(client);

    const listed = await api<ToolsAnswer>(gateway.url, 'GET', '/api/servers/everything/tools');
    expect(listed.status).toBe(200);
    expect(listed.body.enabledTools).toBeNull();
    expect(listed.body.tools.map((t) => t.name)).toEqual(expect.arrayContaining(['echo', 'get-sum']));
    expect(listed.body.tools.every((t) => t.enabled)).toBe(true);
    const total = listed.body.tools.length;

    // Select two tools, persisted: the file gets enabledTools, the client's tools/list shrinks to them.
    const put = await api(gateway.url, 'PUT', '/api/servers/everything/tools', { enabledTools: ['echo', 'get-sum'], persist: true });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body).toMatchObject({ server: 'everything', enabledTools: ['echo', 'get-sum'], persisted: true });
    const file = JSON.parse(await readFile(config, 'utf8')) as { mcpServers: Record<string, { enabledTools?: string[] }> };
    expect(file.mcpServers.everything.enabledTools).toEqual(['echo', 'get-sum']);
    const names = await waitFor(async () => {
      const tools = (await client.client.listTools()).tools.map((t) => t.name);
      return tools.length === 2 && tools;
    }, 'tools/list to show the two selected tools');
    expect(names.sort()).toEqual(['everything_echo', 'everything_get-sum']);
    const after = await api<ToolsAnswer>(gateway.url, 'GET', '/api/servers/everything/tools');
    expect(after.body.tools).toHaveLength(total); // every tool still listed, with what is enabled
    expect(after.body.tools.filter((t) => t.enabled).map((t) => t.name).sort()).toEqual(['echo', 'get-sum']);

    // Bad bodies and unknown servers are refused with what to send.
    expect((await api(gateway.url, 'PUT', '/api/servers/everything/tools', { enabledTools: 'echo' })).status).toBe(400);
    expect((await api(gateway.url, 'PUT', '/api/servers/nope/tools', { enabledTools: ['x'] })).status).toBe(404);
    const noCommand = await api(gateway.url, 'POST', '/api/servers', { key: 'memory' });
    expect(noCommand.status).toBe(400);
    expect(noCommand.body.error).toContain('give "command"');
    expect((await api(gateway.url, 'POST', '/api/servers', { key: 'bad key', command: 'x' })).status).toBe(400);
    expect((await api(gateway.url, 'POST', '/api/servers', { key: 'remote', url: 'ftp://example.test/mcp' })).status).toBe(400);
    expect((await api(gateway.url, 'POST', '/api/servers', { key: 'everything', command: 'node' })).status).toBe(409);

    // Add the memory server: written to the file, started live, its tools listed.
    const memory = npmServer('memory');
    const added = await api(gateway.url, 'POST', '/api/servers', { key: 'memory', command: memory.command, args: memory.args, env: { MEMORY_FILE_PATH: `${config}.memory.jsonl` } });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    const written = JSON.parse(await readFile(config, 'utf8')) as { mcpServers: Record<string, { command?: string; env?: Record<string, string> }> };
    expect(written.mcpServers.memory).toMatchObject({ command: memory.command, env: { MEMORY_FILE_PATH: `${config}.memory.jsonl` } });
    const servers = await api<ServersAnswer>(gateway.url, 'GET', '/api/servers');
    expect(servers.body.servers.map((s) => s.key)).toEqual(['everything', 'memory']);
    const memoryTools = await api<ToolsAnswer>(gateway.url, 'GET', '/api/servers/memory/tools');
    expect(memoryTools.body.tools.map((t) => t.name)).toContain('create_entities');
    await waitFor(async () => (await client.client.listTools()).tools.some((t) => t.name === 'memory_create_entities'), 'the client to see the added server');

    // Restart: counted in the connection's restarts, and the server comes back.
    const restarted = await api(gateway.url, 'POST', '/api/servers/everything/restart');
    expect(restarted.status).toBe(200);
    const back = await waitFor(async () => {
      const status = (await api<ServersAnswer>(gateway.url, 'GET', '/api/servers')).body.servers.find((s) => s.key === 'everything')!;
      return status.state === 'connected' && status.connections.some((c) => c.restarts >= 1) && status;
    }, 'everything to be connected again after one restart');
    expect(back.state).toBe('connected');
    expect((await client.client.callTool({ name: 'everything_echo', arguments: { message: 'after restart' } })).content).toEqual([{ type: 'text', text: 'Echo: after restart' }]);
    expect((await api(gateway.url, 'POST', '/api/servers/nope/restart')).status).toBe(404);
  }, 60_000);
});
