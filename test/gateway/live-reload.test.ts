// Config edits are applied while clients stay connected: servers added, removed and restarted,
// clients told once per change with tools/list_changed, and a broken edit keeps the last good one.
import { writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { connectHttp, newClient, npmServer, startHttpGateway, waitFor, writeConfig } from '../helpers/gateway.js';

const ANY = z.any();

describe('live configuration reload', () => {
  it('adds, restarts and removes servers and notifies connected clients', async () => {
    const memory = npmServer('memory', [], { MEMORY_FILE_PATH: '/tmp/switchboard-reload-memory.jsonl' });
    const config = await writeConfig({ memory });
    const gateway = await startHttpGateway(config);
    let changes = 0;
    const client = newClient();
    client.setNotificationHandler('notifications/tools/list_changed', () => void changes++);
    const { close } = await connectHttp(gateway.url, client);
    const names = async () => (await client.request({ method: 'tools/list', params: {} }, ANY)).tools.map((t: { name: string }) => t.name) as string[];
    try {
      expect(await names()).toContain('memory_read_graph');

      await writeFile(config, JSON.stringify({ mcpServers: { memory, everything: npmServer('everything') } }));
      await waitFor(() => changes >= 1, 'list_changed after adding a server');
      await waitFor(async () => (await names()).includes('everything_echo'), 'the new server\u2019s tools');
      const echo = await client.request({ method: 'tools/call', params: { name: 'everything_echo', arguments: { message: 'new' } } }, ANY);
      expect(echo.content[0].text).toBe('Echo: new');

      const restarted = { ...memory, env: { MEMORY_FILE_PATH: '/tmp/switchboard-reload-memory-2.jsonl' } };
      await writeFile(config, JSON.stringify({ mcpServers: { memory: restarted, everything: npmServer('everything') } }));
      await waitFor(() => gateway.log.records().some((r) => r.msg === 'servers changed' && (r.restarted as string[])?.includes('memory')), 'memory to restart');
      await waitFor(async () => (await names()).includes('memory_read_graph'), 'memory tools after the restart');

      const before = changes;
      await writeFile(config, JSON.stringify({ mcpServers: { everything: npmServer('everything') } }));
      await waitFor(() => changes > before, 'list_changed after removing a server');
      await waitFor(async () => !(await names()).some((n) => n.startsWith('memory_')), 'the removed server\u2019s tools to disappear');

      await writeFile(config, '{ "mcpServers": { "everything": ');
      await waitFor(() => gateway.log.records().some((r) => r.msg === 'configuration change rejected; keeping the previous one'), 'the broken edit to be rejected');
      expect(await names()).toContain('everything_echo');
      const still = await client.request({ method: 'tools/call', params: { name: 'everything_echo', arguments: { message: 'still' } } }, ANY);
      expect(still.content[0].text).toBe('Echo: still');
    } finally {
      await close();
      await gateway.close();
    }
  });
});
