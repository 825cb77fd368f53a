// Change tracking end to end: `switchboard refresh` against raw-server.ts whose tool list changes between
// runs (RAW_TOOLS), `switchboard changes` reading the audit log, and the list_changed path of a running
// stdio gateway (a tool added at run time lands in the audit log).
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CatalogChange } from '../../src/store/index.js';
import type { RefreshResult } from '../../src/cli/refresh.js';
import { connectStdio, fixtureServer, isAlive, newClient, tempDir, waitFor, writeConfig } from '../helpers/gateway.js';
import { runCli, runCliJson } from './run-cli.js';

const OBJECT = { type: 'object', properties: { q: { type: 'string' } } };

function tool(name: string, description = `The ${name} tool.`) {
  return { name, description, inputSchema: OBJECT };
}

function rawServer(tools: unknown[]) {
  return fixtureServer('raw-server.ts', [], { RAW_SERVER_NAME: 'raw', RAW_TOOLS: JSON.stringify(tools) });
}

describe('change tracking', () => {
  it('refresh counts added, updated, removed and unchanged tools between runs; changes shows them', async () => {
    const dir = await tempDir('switchboard-refresh-');
    const data = path.join(dir, 'data');
    await writeConfig({ raw: rawServer([tool('a'), tool('b'), tool('c')]) }, undefined, dir);

    const [first] = await runCliJson<RefreshResult[]>(['refresh', '--json', '--config', path.join(dir, '.mcp.json')], data);
    expect(first).toMatchObject({ server: 'raw', status: 'listed', added: 3, updated: 0, removed: 0, unchanged: 0 });
    expect(first!.kinds.tools).toEqual({ added: ['a', 'b', 'c'], updated: [], removed: [], unchanged: 0 });

    // The server now lists a (new description), c and d.
    await writeConfig({ raw: rawServer([tool('a', 'The a tool, now different.'), tool('c'), tool('d')]) }, undefined, dir);
    const config = path.join(dir, '.mcp.json');

    // Listed seconds ago: fresh, so not started and nothing recorded, unless --force.
    const [fresh] = await runCliJson<RefreshResult[]>(['refresh', '--json', '--config', config], data);
    expect(fresh).toMatchObject({ server: 'raw', status: 'fresh', added: null, updated: null, removed: null, unchanged: null });
    expect(fresh!.listedAt).toBeGreaterThan(Date.now() - 60_000);
    expect(await runCliJson<CatalogChange[]>(['changes', '--json'], data)).toHaveLength(3);

    const [second] = await runCliJson<RefreshResult[]>(['refresh', '--json', '--force', '--server', 'raw', '--config', config], data);
    expect(second).toMatchObject({ server: 'raw', status: 'listed', added: 1, updated: 1, removed: 1, unchanged: 1 });
    expect(second!.kinds.tools).toEqual({ added: ['d'], updated: ['a'], removed: ['b'], unchanged: 1 });
    expect(second!.fields).toEqual({ 'tools/a': ['description'] });

    const changes = await runCliJson<CatalogChange[]>(['changes', '--json', '--server', 'raw'], data);
    expect(changes).toHaveLength(6);
    const latest = changes.slice(0, 3);
    expect(new Set(latest.map((c) => c.at)).size).toBe(1); // one save, one time
    expect(latest.map((c) => ({ change: c.change, name: c.name, fields: c.diffSummary })).sort((x, y) => x.name.localeCompare(y.name))).toEqual([
      { change: 'updated', name: 'a', fields: ['description'] },
      { change: 'removed', name: 'b', fields: [] },
      { change: 'added', name: 'd', fields: [] },
    ]);
    const updated = latest.find((c) => c.name === 'a')!;
    const addedA = changes.find((c) => c.name === 'a' && c.change === 'added')!;
    expect(updated.oldHash).toBe(addedA.newHash);
    expect(updated.newHash).not.toBe(updated.oldHash);
    expect(latest.find((c) => c.name === 'b')).toMatchObject({ kind: 'tools', newHash: null });
    expect(changes.slice(3).map((c) => `${c.change} ${c.name}`).sort()).toEqual(['added a', 'added b', 'added c']);

    // --since the second refresh: only its three rows.
    const since = new Date(latest[0]!.at).toISOString();
    expect(await runCliJson<CatalogChange[]>(['changes', '--json', '--since', since], data)).toHaveLength(3);

    // A forced refresh with nothing changed records nothing.
    const [third] = await runCliJson<RefreshResult[]>(['refresh', '--json', '--force', '--config', config], data);
    expect(third).toMatchObject({ status: 'listed', added: 0, updated: 0, removed: 0, unchanged: 3 });
    expect(await runCliJson<CatalogChange[]>(['changes', '--json'], data)).toHaveLength(6);

    // The human output: a table, then what changed per server.
    await writeConfig({ raw: rawServer([tool('c'), tool('d'), tool('e')]) }, undefined, dir);
    const text = await runCli(['refresh', '--force', '--config', config], data);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^SERVER\s+ADDED\s+UPDATED\s+REMOVED\s+UNCHANGED\s+STATUS\nraw\s+1\s+0\s+1\s+2\s+listed live\nraw:\n  \+ tool e\n  - tool a\n$/);
  }, 90_000);

  it('refresh reports a server that cannot be listed (exit 1) and refuses unknown or disabled servers (exit 2)', async () => {
    const dir = await tempDir('switchboard-refresh-');
    const data = path.join(dir, 'data');
    const config = await writeConfig(
      { ghost: { command: 'switchboard-test-no-such-command' }, off: { ...rawServer([tool('a')]), disabled: true } },
      undefined,
      dir,
    );
    const [ghost, ...rest] = await runCliJson<RefreshResult[]>(['refresh', '--json', '--config', config], data, 1);
    expect(rest).toEqual([]);
    expect(ghost).toMatchObject({ server: 'ghost', status: 'failed', added: null, listedAt: null });
    expect(ghost!.error).toContain('command not found');

    const unknown = await runCli(['refresh', '--server', 'nope', '--config', config], data);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Unknown server "nope". Configured: ghost, off.');
    const disabled = await runCli(['refresh', '--server', 'off', '--config', config], data);
    expect(disabled.code).toBe(2);
    expect(disabled.stderr).toContain('Server "off" is disabled');
  }, 60_000);

  it('a tool added while the gateway runs (list_changed) is recorded in the audit log', async () => {
    const dir = await tempDir('switchboard-list-changed-');
    const config = await writeConfig(
      { live: fixtureServer('raw-server.ts', [], { RAW_SERVER_NAME: 'live', RAW_TOOLS: JSON.stringify([tool('echo'), tool('add_tool')]) }) },
      undefined,
      dir,
    );
    const data = path.join(dir, 'data');
    const connected = await connectStdio(config, newClient());
    const pid = connected.pid!;
    try {
      const { tools } = await connected.client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(['live_add_tool', 'live_echo']);
      await connected.client.callTool({ name: 'live_add_tool', arguments: { name: 'fresh' } });
      await waitFor(async () => (await connected.client.listTools()).tools.some((t) => t.name === 'live_fresh'), 'live_fresh to be listed', 15_000);
    } finally {
      await connected.close();
    }
    await waitFor(() => !isAlive(pid), 'the stdio gateway to exit', 15_000);

    const changes = await runCliJson<CatalogChange[]>(['changes', '--json', '--server', 'live'], data);
    expect(changes.map((c) => `${c.server} ${c.kind} ${c.change} ${c.name}`)).toEqual([
      'live tools added fresh',
      'live tools added add_tool',
      'live tools added echo',
    ]);
    expect(changes[0]!.at).toBeGreaterThan(changes[1]!.at - 1);
  }, 60_000);
});
