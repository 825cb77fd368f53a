// Per-client settings from switchboard.clients over real HTTP (issue #14 item 2), with real SDK
// clients against the real gateway: a client's own `mode` and `toolset` replace the gateway's on
// /mcp; a client scoped to some servers sees none of another server's prompts, resources or
// templates and is refused when it asks for one by name; unauthenticatedAdmin is refused on a
// non-loopback bind even with client tokens.
import { describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { dataDirFor, fixtureServer, npmServer, startHttpGateway, writeConfig, spawnCli } from '../helpers/gateway.js';

const runCli = spawnCli;

async function connectAs(url: string, token: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${token}` } } });
  const client = new Client({ name: 'client-profiles-test', version: '1.0.0' }, { capabilities: {} });
  await client.connect(transport);
  return client;
}

const TOKENS = {
  SB_ALL_TOKEN: 'all-token-value-1234567890',
  SB_META_TOKEN: 'meta-token-value-1234567890',
  SB_KIT_TOKEN: 'kit-token-value-1234567890',
  SB_SCOPED_TOKEN: 'scoped-token-value-1234567890',
};

describe('per-client settings over HTTP', () => {
  it('a client\'s mode and toolset replace the gateway\'s on /mcp; a scoped client sees and reads no other server\'s prompts or resources', async () => {
    const config = await writeConfig(
      { everything: npmServer('everything'), conf: fixtureServer('conformance-server.ts') },
      {
        clients: [
          { name: 'all', tokenEnv: 'SB_ALL_TOKEN' },
          { name: 'metabot', tokenEnv: 'SB_META_TOKEN', mode: 'meta' },
          { name: 'kitbot', tokenEnv: 'SB_KIT_TOKEN', toolset: 'kit' },
          { name: 'scoped', tokenEnv: 'SB_SCOPED_TOKEN', servers: ['everything'] },
        ],
      },
    );
    const created = await runCli(['toolset', 'create', 'kit', 'everything.echo', 'everything.get-sum', '--config', config, ...dataDirFor(config)], TOKENS);
    expect(created.code, created.stderr).toBe(0);
    const gateway = await startHttpGateway(config, [], TOKENS);
    const open: Client[] = [];
    try {
      const all = await connectAs(gateway.url, TOKENS.SB_ALL_TOKEN);
      const metabot = await connectAs(gateway.url, TOKENS.SB_META_TOKEN);
      const kitbot = await connectAs(gateway.url, TOKENS.SB_KIT_TOKEN);
      const scoped = await connectAs(gateway.url, TOKENS.SB_SCOPED_TOKEN);
      open.push(all, metabot, kitbot, scoped);

      // The gateway runs in passthrough: a client without settings of its own gets every tool.
      const allTools = (await all.listTools()).tools.map((t) => t.name);
      expect(allTools).toContain('everything_get-env');
      expect(allTools).toContain('conf_test_simple_text');
      // mode: meta for one client: the three meta-tools, and they work.
      expect((await metabot.listTools()).tools.map((t) => t.name).sort()).toEqual(['tool_capabilities', 'tool_discovery', 'tool_execute']);
      const executed = await metabot.callTool({ name: 'tool_execute', arguments: { toolKey: 'everything_echo', arguments: { message: 'through meta' } } });
      expect(JSON.stringify(executed.content)).toContain('through meta');
      // toolset: kit for another: exactly the toolset's tools.
      expect((await kitbot.listTools()).tools.map((t) => t.name).sort()).toEqual(['everything_echo', 'everything_get-sum']);
      const summed = await kitbot.callTool({ name: 'everything_get-sum', arguments: { a: 2, b: 3 } });
      expect(JSON.stringify(summed.content)).toContain('5');

      // The out-of-scope server does have prompts, resources and templates (the unscoped client sees them).
      expect((await all.listPrompts()).prompts.map((p) => p.name)).toContain('conf_test_simple_prompt');
      expect((await all.listResources()).resources.map((r) => r.uri)).toContain('test://static-text');
      const confTemplates = (await all.listResourceTemplates()).resourceTemplates.filter((t) => t.uriTemplate.startsWith('test://'));
      expect(confTemplates.length).toBeGreaterThan(0);
      // The scoped client: only its server's prompts, resources and templates are listed.
      const prompts = (await scoped.listPrompts()).prompts.map((p) => p.name);
      expect(prompts.length).toBeGreaterThan(0);
      expect(prompts.filter((name) => !name.startsWith('everything_'))).toEqual([]);
      const resources = (await scoped.listResources()).resources.map((r) => r.uri);
      expect(resources.length).toBeGreaterThan(0);
      expect(resources.filter((uri) => uri.startsWith('test://'))).toEqual([]);
      expect((await scoped.listResourceTemplates()).resourceTemplates.filter((t) => t.uriTemplate.startsWith('test://'))).toEqual([]);
      // Asked for by name anyway: refused (-32602), nothing forwarded.
      const refused = (promise: Promise<unknown>) => promise.then(() => 'answered', (error: Error & { code?: number }) => `${error.code}: ${error.message}`);
      const prompt = await refused(scoped.getPrompt({ name: 'conf_test_simple_prompt' }));
      expect(prompt).toContain('-32602');
      expect(prompt).toContain('Client "scoped" may not use prompt "conf_test_simple_prompt"');
      const resource = await refused(scoped.readResource({ uri: 'test://static-text' }));
      expect(resource).toContain('-32602');
      expect(resource).toContain('Client "scoped" may not use resource "test://static-text"');
      // Its own server's still work.
      expect(prompts).toContain('everything_simple-prompt');
      expect((await scoped.getPrompt({ name: 'everything_simple-prompt' })).messages.length).toBeGreaterThan(0);
      expect((await scoped.readResource({ uri: resources[0]! })).contents.length).toBeGreaterThan(0);
    } finally {
      for (const client of open) await client.close().catch(() => undefined);
      await gateway.close();
    }
  }, 120_000);

  it('refuses unauthenticatedAdmin on a non-loopback bind even with client tokens: exit 2 with the fix', async () => {
    const config = await writeConfig({ everything: npmServer('everything') }, { clients: [{ name: 'ops', tokenEnv: 'SB_OPS_TOKEN', admin: true }], http: { unauthenticatedAdmin: true } });
    const result = await runCli(['serve', '--http', '--host', '0.0.0.0', '--port', '0', '--config', config, ...dataDirFor(config)], { SB_OPS_TOKEN: 'ops-token-value-1234567890' });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('refusing to listen on 0.0.0.0 with switchboard.http.unauthenticatedAdmin: true');
    expect(result.stderr).toContain('bind to 127.0.0.1');
  });
});
