// Cached listings belong to the server they were taken from, not to its key (issue 19 item 1): two
// configs share one data dir and both name a server "x" (server-everything in one, server-memory in
// the other). A lazy gateway on the second must not show the first one's cached tools, calls must
// reach real tools, and the change log must not record made-up removals.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { connectStdio, npmServer, tempDir, writeConfig } from '../helpers/gateway.js';
import { runCli } from '../cli/run-cli.js';
import { serverIdentity } from '../../src/servers/identity.js';

const ANY = z.any();

describe('listings cached per server identity', () => {
  it('a project whose "x" is another server gets its own tools, not the cached ones of the other project', async () => {
    const shared = path.join(await tempDir('switchboard-shared-data-'), 'data');
    const projectA = await writeConfig({ x: npmServer('everything') });
    const dirB = await tempDir('switchboard-project-b-');
    const projectB = await writeConfig({ x: npmServer('memory', [], { MEMORY_FILE_PATH: path.join(dirB, 'm.jsonl') }) }, undefined, dirB);

    const listed = await runCli(['refresh', '--config', projectA], shared);
    expect(listed.code, listed.stderr).toBe(0);

    const connected = await connectStdio(projectB, undefined, ['--data-dir', shared]);
    try {
      const { tools } = await connected.client.request({ method: 'tools/list', params: {} }, ANY);
      const names = tools.map((t: { name: string }) => t.name) as string[];
      expect(names).toContain('x_read_graph');
      expect(names).not.toContain('x_echo');
      const graph = await connected.client.request({ method: 'tools/call', params: { name: 'x_read_graph', arguments: {} } }, ANY);
      expect(graph.isError).not.toBe(true);
    } finally {
      await connected.close();
    }
    // Neither listing replaced the other: no removals recorded for x.
    const changes = await runCli(['changes', '--server', 'x', '--json', '--config', projectB], shared);
    const rows = JSON.parse(changes.stdout) as Array<{ change: string }>;
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.filter((r) => r.change === 'removed')).toEqual([]);
  });

  it('the identity follows command, args, env names and URL, not the key, env values or headers', () => {
    const base = { key: 'x', transport: 'stdio' as const, command: 'node', args: ['a.js'], env: { A: '1' }, disabled: false };
    expect(serverIdentity(base)).toBe(serverIdentity({ ...base, key: 'y', description: 'other words' }));
    expect(serverIdentity(base)).not.toBe(serverIdentity({ ...base, args: ['b.js'] }));
    expect(serverIdentity(base)).toBe(serverIdentity({ ...base, env: { A: 'a rotated token' } }));
    expect(serverIdentity(base)).not.toBe(serverIdentity({ ...base, env: { B: '1' } }));
    const remote = { key: 'x', transport: 'http' as const, url: 'https://a.example/mcp', headers: {}, disabled: false };
    expect(serverIdentity(remote)).toBe(serverIdentity({ ...remote, headers: { Authorization: 'Bearer t' } }));
    expect(serverIdentity(remote)).not.toBe(serverIdentity({ ...remote, url: 'https://b.example/mcp' }));
  });
});
