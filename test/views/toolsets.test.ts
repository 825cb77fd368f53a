// Toolsets through real clients over HTTP and stdio: the management tools, equip and unequip with
// list_changed, exactly the expected tools, names with dots and hyphens routed correctly, unknown
// references with close matches, concurrent equips, equip while a server is down, the active
// toolset surviving a restart, fixed toolset endpoints, and disabled tools refused everywhere.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ProtocolError } from '@modelcontextprotocol/client';
import { connectHttp, connectStdio, fixtureServer, newClient, startHttpGateway, tempDir, waitFor, writeConfig, type RunningGateway } from '../helpers/gateway.js';

const ANY = z.any();
const MANAGEMENT = ['build-toolset', 'delete-toolset', 'discover-all-tools', 'equip-toolset', 'get-active-toolset', 'list-toolsets', 'unequip-toolset'];

function raw(name: string, tools: string[]) {
  return fixtureServer('raw-server.ts', [], {
    RAW_SERVER_NAME: name,
    RAW_TOOLS: JSON.stringify(tools.map((t) => ({ name: t, description: `${name} ${t}`, inputSchema: { type: 'object', properties: {} } }))),
  });
}

const SERVERS = {
  git: raw('git', ['status', 'commit', 'log.show', 'diff-files', 'push']),
  docker: raw('docker', ['ps', 'logs', 'list_containers']),
};

type Client = ReturnType<typeof newClient>;
const names = async (client: Client) => ((await client.request({ method: 'tools/list', params: {} }, ANY)).tools as Array<{ name: string }>).map((t) => t.name).sort();
const call = (client: Client, name: string, args: Record<string, unknown> = {}) => client.request({ method: 'tools/call', params: { name, arguments: args } }, ANY);

async function buildDev(client: Client, name = 'dev') {
  const result = await call(client, 'build-toolset', {
    name,
    description: 'daily work',
    tools: [{ namespacedName: 'git.status' }, { server: 'docker', tool: 'ps' }, { namespacedName: 'git.log.show' }, { namespacedName: 'git.diff-files' }, { namespacedName: 'docker.list_containers' }],
  });
  expect(result.isError).not.toBe(true);
}

describe('toolsets over HTTP (toolset mode)', () => {
  it('builds, equips and unequips with list_changed, routing flattened names correctly', async () => {
    const config = await writeConfig(SERVERS, { mode: 'toolset' });
    const gateway = await startHttpGateway(config);
    try {
      let changed = 0;
      const client = newClient();
      client.setNotificationHandler('notifications/tools/list_changed', () => void changed++);
      await connectHttp(gateway.url, client);
      expect(await names(client)).toEqual(MANAGEMENT);

      const discovered = await call(client, 'discover-all-tools');
      expect(discovered.structuredContent.tools.map((t: { namespacedName: string }) => t.namespacedName)).toContain('git.log.show');

      const typo = await call(client, 'build-toolset', { name: 'bad', tools: [{ namespacedName: 'git.stauts' }] });
      expect(typo.isError).toBe(true);
      expect(typo.structuredContent.suggestions).toContain('git.status');
      const noServer = await call(client, 'build-toolset', { name: 'bad', tools: [{ namespacedName: 'gti.status' }] });
      expect(noServer.isError).toBe(true);

      await buildDev(client);
      await call(client, 'equip-toolset', { name: 'dev' });
      await waitFor(() => changed >= 1, 'list_changed after equip');
      expect(await names(client)).toEqual([...MANAGEMENT, 'docker_list_containers', 'docker_ps', 'git_diff-files', 'git_log_show', 'git_status'].sort());
      expect(JSON.parse((await call(client, 'docker_list_containers')).content[0].text).tool).toBe('list_containers');

      const routed = await call(client, 'git_log_show', { n: 1 });
      expect(JSON.parse(routed.content[0].text)).toEqual({ tool: 'log.show', arguments: { n: 1 } });
      expect(JSON.parse((await call(client, 'git_diff-files')).content[0].text).tool).toBe('diff-files');
      const outside = (await call(client, 'git_push').catch((e: unknown) => e)) as ProtocolError;
      expect(outside.code).toBe(-32602);
      expect(outside.message).toContain('not in the equipped toolset');

      const active = await call(client, 'get-active-toolset');
      expect(active.structuredContent).toMatchObject({ active: 'dev', missing: [] });
      expect(active.structuredContent.registered.sort()).toEqual(['docker_list_containers', 'docker_ps', 'git_diff-files', 'git_log_show', 'git_status']);
      const listed = await call(client, 'list-toolsets');
      expect(listed.structuredContent.toolsets).toEqual([{ name: 'dev', description: 'daily work', tools: 5, equipped: true }]);

      const before = changed;
      await call(client, 'unequip-toolset');
      await waitFor(() => changed > before, 'list_changed after unequip');
      expect(await names(client)).toEqual(MANAGEMENT);
    } finally {
      await gateway.close();
    }
  });

  it('serializes concurrent equips and keeps the default toolset (set on /gateway/mcp) across a restart; fixed endpoints serve one toolset', async () => {
    const config = await writeConfig(SERVERS, { mode: 'toolset' });
    let gateway: RunningGateway = await startHttpGateway(config);
    try {
      const { client } = await connectHttp(gateway.url, newClient());
      await buildDev(client, 'dev');
      expect((await call(client, 'build-toolset', { name: 'ops', tools: [{ namespacedName: 'docker.logs' }] })).isError).not.toBe(true);
      const results = await Promise.all([call(client, 'equip-toolset', { name: 'dev' }), call(client, 'equip-toolset', { name: 'ops' })]);
      for (const r of results) expect(r.isError).not.toBe(true);
      // The second equip ran after the first: ops is equipped, and the list is exactly ops.
      expect(await names(client)).toEqual([...MANAGEMENT, 'docker_logs'].sort());
      // A session's equip is its own; the gateway's default (what new sessions start with, kept
      // across a restart) is set on the management endpoint.
      const admin = await connectHttp(gateway.url, newClient(), '/gateway/mcp');
      expect((await call(admin.client, 'equip-toolset', { name: 'ops' })).isError).not.toBe(true);

      await gateway.close();
      gateway = await startHttpGateway(config);
      const again = await connectHttp(gateway.url, newClient());
      expect(await names(again.client)).toEqual([...MANAGEMENT, 'docker_logs'].sort());

      const fixed = await connectHttp(gateway.url, newClient(), '/toolsets/dev/mcp');
      expect(await names(fixed.client)).toEqual(['docker_list_containers', 'docker_ps', 'git_diff-files', 'git_log_show', 'git_status']);
      expect(JSON.parse((await call(fixed.client, 'git_status')).content[0].text).tool).toBe('status');
      const unknown = await fetch(`${gateway.url}/toolsets/nope/mcp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(unknown.status).toBe(404);
    } finally {
      await gateway.close();
    }
  });

  it('serve --http --toolset NAME serves exactly that toolset at /mcp (issue 19 item 4)', async () => {
    const config = await writeConfig(SERVERS, { mode: 'toolset' });
    let gateway: RunningGateway = await startHttpGateway(config);
    try {
      const { client } = await connectHttp(gateway.url, newClient());
      await buildDev(client, 'dev');
      await gateway.close();
      gateway = await startHttpGateway(config, ['--toolset', 'dev']);
      const main = await connectHttp(gateway.url, newClient());
      expect(await names(main.client)).toEqual(['docker_list_containers', 'docker_ps', 'git_diff-files', 'git_log_show', 'git_status']);
    } finally {
      await gateway.close();
    }
  });

  it('equips while a server is down; its tools appear when it comes back', async () => {
    const state = path.join(await tempDir(), 'flap');
    const config = await writeConfig(
      { git: SERVERS.git, flaky: fixtureServer('fault-server.ts', ['--flap', state]) },
      { mode: 'toolset', resilience: { retry: { maxAttempts: 5, initialDelayMs: 300, maxDelayMs: 600 } } },
    );
    const gateway = await startHttpGateway(config);
    try {
      let changed = 0;
      const client = newClient();
      client.setNotificationHandler('notifications/tools/list_changed', () => void changed++);
      await connectHttp(gateway.url, client);
      await names(client); // lists both servers; "flaky" fails its first start
      const built = await call(client, 'build-toolset', { name: 'mixed', tools: [{ namespacedName: 'git.status' }, { namespacedName: 'flaky.ok' }] });
      expect(built.isError).not.toBe(true);
      await call(client, 'equip-toolset', { name: 'mixed' });
      const active = await call(client, 'get-active-toolset');
      if (active.structuredContent.missing.length) expect(active.structuredContent.missing[0]).toMatchObject({ server: 'flaky', tool: 'ok' });
      await waitFor(async () => (await names(client)).includes('flaky_ok'), 'the recovered server\u2019s tool to be registered', 20_000);
      expect(changed).toBeGreaterThan(0);
      expect((await call(client, 'flaky_ok', { text: 'back' })).content[0].text).toBe('ok: back');
    } finally {
      await gateway.close();
    }
  });
});

describe('toolsets over stdio', () => {
  it('serves a fixed toolset with --toolset, and toolset mode gets list_changed on equip', async () => {
    const config = await writeConfig(SERVERS);
    const setup = await connectStdio(config, newClient(), ['--mode', 'toolset']);
    let changed = 0;
    setup.client.setNotificationHandler('notifications/tools/list_changed', () => void changed++);
    await buildDev(setup.client);
    await call(setup.client, 'equip-toolset', { name: 'dev' });
    await waitFor(() => changed >= 1, 'list_changed over stdio');
    expect(await names(setup.client)).toContain('git_log_show');
    await setup.close();

    const fixed = await connectStdio(config, newClient(), ['--toolset', 'dev']);
    expect(await names(fixed.client)).toEqual(['docker_list_containers', 'docker_ps', 'git_diff-files', 'git_log_show', 'git_status']);
    await fixed.close();
  });
});

describe('per-server tool selection', () => {
  it('hides disabled tools in every mode and refuses to call them', async () => {
    const config = await writeConfig(
      {
        git: { ...SERVERS.git, disabledTools: ['push'] },
        docker: { ...SERVERS.docker, enabledTools: ['ps'] },
      },
      { http: { unauthenticatedAdmin: true } }, // PUT /api/servers/git/tools without a token (loopback)
    );
    const gateway = await startHttpGateway(config);
    try {
      const client = newClient();
      await connectHttp(gateway.url, client);
      const visible = await names(client);
      expect(visible).toContain('git_commit');
      expect(visible).not.toContain('git_push');
      expect(visible).toContain('docker_ps');
      expect(visible).not.toContain('docker_logs');
      expect(((await call(client, 'git_push').catch((e: unknown) => e)) as ProtocolError).code).toBe(-32602);

      const direct = await connectHttp(gateway.url, newClient(), '/servers/git/mcp');
      expect(await names(direct.client)).not.toContain('push');
      const refused = (await call(direct.client, 'push').catch((e: unknown) => e)) as ProtocolError;
      expect(refused.message).toContain('disabled');

      // The admin API changes the selection at run time; clients are told.
      let changed = 0;
      client.setNotificationHandler('notifications/tools/list_changed', () => void changed++);
      const put = await fetch(`${gateway.url}/api/servers/git/tools`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ disabledTools: ['commit'] }) });
      expect(put.status).toBe(200);
      await waitFor(() => changed > 0, 'list_changed after the selection changed');
      await waitFor(async () => {
        const now = await names(client);
        return now.includes('git_push') && !now.includes('git_commit');
      }, 'push visible again and commit hidden');
      expect(((await call(client, 'git_commit').catch((e: unknown) => e)) as ProtocolError).code).toBe(-32602);
      const bad = await fetch(`${gateway.url}/api/servers/git/tools`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ disabledTools: 'commit' }) });
      expect(bad.status).toBe(400);
      const unknown = await fetch(`${gateway.url}/api/servers/nope/tools`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(unknown.status).toBe(404);
    } finally {
      await gateway.close();
    }
  });
});
