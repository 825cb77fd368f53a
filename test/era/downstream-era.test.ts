// Which era each downstream server is spoken to: an HTTP server built on the SDK's createMcpHandler
// (it serves both eras) configured three times: `era: "auto"` (probe, then 2026-07-28),
// `era: "2026-07-28"` and no era (the 2025 default). Its `whoami` tool says which era each call
// arrived in, and /api/servers reports the era of each connection. The fixture's handler checks
// Mcp-Method/Mcp-Name against the body, so a modern call of `auto_whoami` that succeeds shows the
// headers were derived from the de-namespaced request (`whoami`), not the client's name.
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO, TSX_IMPORT, connectHttp, newClient, startHttpGateway, stopChild, waitFor, writeConfig, type RunningGateway } from '../helpers/gateway.js';
import path from 'node:path';

function whoami(result: unknown): { era: string; protocolVersion: string | null } {
  return JSON.parse((result as { content: { text: string }[] }).content[0]!.text) as { era: string; protocolVersion: string | null };
}

describe('downstream eras per server entry', () => {
  let server: ChildProcess;
  let gateway: RunningGateway;

  beforeAll(async () => {
    server = spawn(process.execPath, [...TSX_IMPORT, path.join(REPO, 'test/fixtures/modern-http-server.ts')], { cwd: REPO, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    server.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const url = await waitFor(() => /listening (\S+)/.exec(out)?.[1], 'the modern fixture server to listen');
    const config = await writeConfig({
      auto: { type: 'http', url, era: 'auto' },
      pinned: { type: 'http', url, era: '2026-07-28' },
      plain: { type: 'http', url },
    });
    gateway = await startHttpGateway(config);
  }, 60_000);

  afterAll(async () => {
    await gateway?.close();
    if (server) await stopChild(server);
  });

  it('speaks 2026-07-28 to era auto and 2026-07-28 entries, and 2025 to the rest; /api/servers says which', { timeout: 60_000 }, async () => {
    const user = await connectHttp(gateway.url, newClient());
    try {
      expect(whoami(await user.client.callTool({ name: 'auto_whoami', arguments: {} }))).toEqual({ era: 'modern', protocolVersion: '2026-07-28' });
      expect(whoami(await user.client.callTool({ name: 'pinned_whoami', arguments: {} }))).toEqual({ era: 'modern', protocolVersion: '2026-07-28' });
      expect(whoami(await user.client.callTool({ name: 'plain_whoami', arguments: {} })).era).toBe('legacy');
      // While the session holds them, each connection reports the era it speaks.
      const { servers } = (await (await fetch(`${gateway.url}/api/servers`)).json()) as { servers: { key: string; connections: { era: string | null }[] }[] };
      const eraOf = (key: string) => servers.find((s) => s.key === key)?.connections.map((c) => c.era);
      expect(eraOf('auto')).toContain('modern');
      expect(eraOf('pinned')).toContain('modern');
      expect(eraOf('plain')).toContain('legacy');
    } finally {
      await user.close();
    }
  });
});
