// Servers started without a client stop again (issue 19 item 5): the first listing a gateway makes
// on its own (discovery of servers never listed, the tool-budget check) and the listing after a
// live reload start servers that no client uses; they must not keep running. Checked with the
// gateway's real child processes (/proc), over serve --http with no client connected.
import path from 'node:path';
import { writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { descendants, npmServer, startHttpGateway, tempDir, waitFor, writeConfig } from '../helpers/gateway.js';

describe('servers started with no client connected', () => {
  it('stop again after the first listing and after a live reload', async () => {
    const dir = await tempDir('switchboard-idle-');
    const memory = npmServer('memory', [], { MEMORY_FILE_PATH: path.join(dir, 'memory.jsonl') });
    const config = await writeConfig({ memory }, undefined, dir);
    const gateway = await startHttpGateway(config);
    const pid = gateway.child.pid!;
    try {
      // Discovery lists the never-seen server ~2 s after boot.
      await waitFor(() => gateway.log.records().some((r) => r.server === 'memory' && r.msg === 'connected'), 'discovery to start memory', 30_000);
      await waitFor(async () => (await descendants(pid)).length === 0, 'memory to stop after its first listing', 15_000);

      await writeFile(config, JSON.stringify({ mcpServers: { memory, everything: npmServer('everything') } }));
      await waitFor(() => gateway.log.records().some((r) => r.server === 'everything' && r.msg === 'connected'), 'the added server to be listed', 30_000).catch((e) => { console.log(gateway.log.text().slice(-3000)); throw e; });
      await waitFor(async () => (await descendants(pid)).length === 0, 'the added server to stop after its listing', 15_000);
      // And it stays listed (from the cache) while stopped.
      const servers = (await (await fetch(`${gateway.url}/api/servers`)).json()) as { servers: Array<{ key: string; error: string | null }> };
      expect(servers.servers.map((s) => s.key)).toEqual(['memory', 'everything']);
      expect(servers.servers.filter((s) => s.error !== null)).toEqual([]);
    } finally {
      await gateway.close();
    }
  });
});
