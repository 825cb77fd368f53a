// Client authentication on the HTTP face (issue #14 item 2), over real HTTP on 127.0.0.1 against
// the real gateway: 401 with WWW-Authenticate, tokens made by `switchboard token create`, scoped
// clients (listings filtered, 403 on HTTP, a tool error in MCP), admin routes, sessions bound to
// their client, rate limits (429 + Retry-After), sessions per client, and the refused
// non-loopback bind.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { npmServer, startHttpGateway, writeConfig, type RunningGateway, spawnCli } from '../helpers/gateway.js';

const runCli = spawnCli;

async function connectWith(url: string, token: string | undefined, endpoint = '/mcp'): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(`${url}${endpoint}`), token ? { requestInit: { headers: { Authorization: `Bearer ${token}` } } } : {});
  const client = new Client({ name: 'auth-test', version: '1.0.0' }, { capabilities: {} });
  await client.connect(transport);
  return { client, transport };
}

const INIT = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };
const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

describe('client authentication', () => {
  it('tokens from `token create`: 401 without, scoped listings and calls, 403 outside the scope, admin routes for admins only', async () => {
    const config = await writeConfig({ everything: npmServer('everything'), memory: npmServer('memory') });
    const admin = await runCli(['token', 'create', 'ops', '--admin', '--write', '-c', config]);
    expect(admin.code).toBe(0);
    const adminToken = admin.stdout.trim();
    expect(adminToken).toMatch(/^sbt_[A-Za-z0-9_-]{43}$/);
    const scoped = await runCli(['token', 'create', 'bot', '--servers', 'everything', '--tools', 'everything.echo,everything.get-sum', '--write', '-c', config]);
    const botToken = scoped.stdout.trim();
    // Only hashes are stored in the file.
    const text = await readFile(config, 'utf8');
    expect(text).not.toContain(adminToken);
    expect(text).not.toContain(botToken);
    expect(JSON.parse(text).switchboard.clients).toHaveLength(2);

    const gateway = await startHttpGateway(config);
    try {
      // No token, a wrong token, a forged Host: 401 with a challenge.
      const none = await fetch(`${gateway.url}/mcp`, { method: 'POST', headers: MCP_HEADERS, body: JSON.stringify(INIT) });
      expect(none.status).toBe(401);
      expect(none.headers.get('www-authenticate')).toMatch(/^Bearer realm="switchboard"/);
      const wrong = await fetch(`${gateway.url}/api/servers`, { headers: { authorization: `Bearer ${adminToken}x`, host: 'localhost' } });
      expect(wrong.status).toBe(401);
      expect(wrong.headers.get('www-authenticate')).toContain('error="invalid_token"');
      const forged = await fetch(`${gateway.url}/api/metrics`, { method: 'DELETE', headers: { host: 'localhost' } });
      expect(forged.status).toBe(401);

      // The scoped client sees only its tools; calls outside its scope are tool errors, never forwarded.
      const bot = await connectWith(gateway.url, botToken);
      const names = (await bot.client.listTools()).tools.map((t) => t.name).sort();
      expect(names).toEqual(['everything_echo', 'everything_get-sum']);
      const echoed = await bot.client.callTool({ name: 'everything_echo', arguments: { message: 'hi' } });
      expect(JSON.stringify(echoed.content)).toContain('hi');
      const refused = await bot.client.callTool({ name: 'everything_get-env', arguments: {} });
      expect(refused.isError).toBe(true);
      expect((refused.content as Array<{ text: string }>)[0]!.text).toContain('Client "bot" may not use tool "everything_get-env"');
      expect(JSON.stringify(refused.content)).not.toContain('PATH');
      const memoryTool = await bot.client.callTool({ name: 'memory_read_graph', arguments: {} });
      expect(memoryTool.isError).toBe(true);
      // A server outside the scope: 403 on its endpoint; admin API: 403 for a non-admin.
      const perServer = await fetch(`${gateway.url}/s/memory/mcp`, { method: 'POST', headers: { ...MCP_HEADERS, authorization: `Bearer ${botToken}` }, body: JSON.stringify(INIT) });
      expect(perServer.status).toBe(403);
      expect(await perServer.text()).toContain('outside the client\'s scope');
      const notAdmin = await fetch(`${gateway.url}/api/metrics`, { method: 'DELETE', headers: { authorization: `Bearer ${botToken}` } });
      expect(notAdmin.status).toBe(403);
      // A session belongs to the client that opened it.
      const stolen = await fetch(`${gateway.url}/mcp`, {
        method: 'POST',
        headers: { ...MCP_HEADERS, authorization: `Bearer ${adminToken}`, 'mcp-session-id': bot.transport.sessionId!, 'mcp-protocol-version': '2025-11-25' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
      });
      expect(stolen.status).toBe(404);

      // The admin sees everything and may change state.
      const ops = await connectWith(gateway.url, adminToken);
      const all = (await ops.client.listTools()).tools.map((t) => t.name);
      expect(all).toContain('everything_get-env');
      expect(all.some((n) => n.startsWith('memory_'))).toBe(true);
      const reset = await fetch(`${gateway.url}/api/metrics`, { method: 'DELETE', headers: { authorization: `Bearer ${adminToken}` } });
      expect(reset.status).toBe(200);
      await bot.client.close();
      await ops.client.close();
    } finally {
      await gateway.close();
    }
  });

  it('rate limits per client (429 with Retry-After) and bounds sessions per client', async () => {
    const config = await writeConfig({ everything: npmServer('everything') }, { clients: [{ name: 'tiny', tokenEnv: 'SB_TEST_TOKEN', requestsPerMinute: 3, maxSessions: 1 }, { name: 'other', tokenEnv: 'SB_OTHER_TOKEN', maxSessions: 1 }] });
    const gateway = await startHttpGateway(config, [], { SB_TEST_TOKEN: 'tiny-token-value-1234567890', SB_OTHER_TOKEN: 'other-token-value-1234567890' });
    try {
      const statuses: number[] = [];
      let retryAfter: string | null = null;
      for (let i = 0; i < 5; i++) {
        const response = await fetch(`${gateway.url}/api/servers`, { headers: { authorization: 'Bearer tiny-token-value-1234567890' } });
        statuses.push(response.status);
        if (response.status === 429) {
          retryAfter = response.headers.get('retry-after');
          expect(((await response.json()) as { error: string }).error).toContain('client "tiny" is over 3 requests per minute');
        }
      }
      // tiny is not an admin (403) for its first three requests, then limited.
      expect(statuses).toEqual([403, 403, 403, 429, 429]);
      expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
      // Another client is not affected; one session each.
      const first = await connectWith(gateway.url, 'other-token-value-1234567890');
      const second = await fetch(`${gateway.url}/mcp`, { method: 'POST', headers: { ...MCP_HEADERS, authorization: 'Bearer other-token-value-1234567890' }, body: JSON.stringify(INIT) });
      expect(second.status).toBe(429);
      expect(((await second.json()) as { error: { message: string } }).error.message).toContain('Too many sessions: client "other" has 1 open');
      await first.client.close();
    } finally {
      await gateway.close();
    }
  });

  it('meta mode and completion keep to the scope: discovery, capabilities and the meta-tool summary never show what a client may not use', async () => {
    const config = await writeConfig(
      { everything: npmServer('everything'), other: npmServer('everything') },
      { clients: [{ name: 'bot', tokenEnv: 'SB_BOT_TOKEN', servers: ['everything'], tools: ['everything.echo', 'everything.get-sum'] }] },
    );
    const gateway = await startHttpGateway(config, ['--mode', 'meta'], { SB_BOT_TOKEN: 'bot-token-value-1234567890' });
    try {
      const bot = await connectWith(gateway.url, 'bot-token-value-1234567890');
      const listed = (await bot.client.listTools()).tools;
      expect(listed.map((t) => t.name).sort()).toEqual(['tool_capabilities', 'tool_discovery', 'tool_execute']);
      // The summary in the meta-tools' descriptions counts the scope only: no other server named.
      expect(JSON.stringify(listed)).not.toContain('other');
      const text = (result: unknown) => ((result as { content: Array<{ text: string }> }).content[0]!.text);
      const found = JSON.parse(text(await bot.client.callTool({ name: 'tool_discovery', arguments: { query: 'print the environment variables', maxResults: 10 } }))) as { tools: Array<{ toolKey: string }> };
      expect(found.tools.map((t) => t.toolKey)).not.toContain('everything_get-env');
      expect(found.tools.every((t) => ['everything_echo', 'everything_get-sum'].includes(t.toolKey))).toBe(true);
      const all = JSON.parse(text(await bot.client.callTool({ name: 'tool_discovery', arguments: { query: ['echo a message', 'sum two numbers', 'environment variables', 'tiny image', 'long running operation', 'annotated message'], maxResults: 50 } }))) as { tools: Array<{ toolKey: string }> };
      expect(all.tools.map((t) => t.toolKey).sort()).toEqual(['everything_echo', 'everything_get-sum']);
      const capabilities = JSON.parse(text(await bot.client.callTool({ name: 'tool_capabilities', arguments: {} }))) as { totalTools: number; servers: Array<{ server: string }> };
      expect(capabilities.totalTools).toBe(2);
      expect(capabilities.servers.map((s) => s.server)).toEqual(['everything']);
      // A refusal either way: a tool error or a JSON-RPC error, never a result from the other server.
      const attempt = (name: string, args: Record<string, unknown>) => bot.client.callTool({ name, arguments: args }).then((r) => (r.isError ? text(r) : `answered: ${text(r)}`), (error: Error) => error.message);
      expect(await attempt('tool_discovery', { query: 'echo', server: 'other' })).toContain('No server "other"');
      expect(await attempt('tool_execute', { toolKey: 'other_echo', arguments: { message: 'x' } })).not.toContain('answered');
      // Completion of an out-of-scope server's prompt is refused, never forwarded.
      const completion = await bot.client.complete({ ref: { type: 'ref/prompt', name: 'other_completable-prompt' }, argument: { name: 'department', value: 'E' } }).then(() => 'answered', (error: Error) => error.message);
      expect(completion).toContain('Client "bot" may not use prompt "other_completable-prompt"');
      const own = await bot.client.complete({ ref: { type: 'ref/prompt', name: 'everything_completable-prompt' }, argument: { name: 'department', value: 'E' } });
      expect(own.completion.values.length).toBeGreaterThan(0);
      await bot.client.close();
    } finally {
      await gateway.close();
    }
  });

  it('without clients: state-changing admin routes need a token unless unauthenticatedAdmin is set (loopback only)', async () => {
    let gateway: RunningGateway = await startHttpGateway(await writeConfig({ everything: npmServer('everything') }));
    try {
      const refused = await fetch(`${gateway.url}/api/metrics`, { method: 'DELETE' });
      expect(refused.status).toBe(401);
      expect(((await refused.json()) as { error: string }).error).toContain('switchboard token create admin --admin --write');
      expect((await fetch(`${gateway.url}/api/servers`)).status).toBe(200);
    } finally {
      await gateway.close();
    }
    gateway = await startHttpGateway(await writeConfig({ everything: npmServer('everything') }, { http: { unauthenticatedAdmin: true } }));
    try {
      expect((await fetch(`${gateway.url}/api/metrics`, { method: 'DELETE' })).status).toBe(200);
    } finally {
      await gateway.close();
    }
  });

  it('refuses a non-loopback bind without client tokens: exit 2 with the fix', async () => {
    const config = await writeConfig({ everything: npmServer('everything') });
    const result = await runCli(['serve', '--http', '--host', '0.0.0.0', '--port', '0', '--config', config, '--data-dir', `${config}.data`]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('refusing to listen on 0.0.0.0');
    expect(result.stderr).toContain('switchboard token create');
  });
});
