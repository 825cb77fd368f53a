// The SDK's stdio client transport, as buildTransport makes it (src/servers/transport.ts), reads a
// real server's output through our line reader (src/servers/stdio-line-buffer.ts), which replaces
// the SDK's in a private field: if an SDK release kept its reader elsewhere, this fails (the gateway
// would go on with the SDK's reader and say so in its log). Real child process, real SDK client.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Client } from '@modelcontextprotocol/client';
import { loadConfig } from '../../src/config/index.js';
import { buildTransport } from '../../src/servers/transport.js';
import { StdioLineBuffer } from '../../src/servers/stdio-line-buffer.js';
import { fixtureServer, writeConfig } from '../helpers/gateway.js';

afterEach(() => {
  vi.restoreAllMocks();
});

describe("a stdio server's output", () => {
  it('is read by our line reader, not the SDK\'s', async () => {
    const config = await loadConfig(await writeConfig({ raw: fixtureServer('raw-server.ts') }));
    const reads = vi.spyOn(StdioLineBuffer.prototype, 'readMessage');
    const appends = vi.spyOn(StdioLineBuffer.prototype, 'append');
    const built = buildTransport(config.servers[0]!);
    const client = new Client({ name: 'line-reader-test', version: '1.0.0' });
    try {
      await client.connect(built.transport);
      const { tools } = await client.listTools();
      expect(tools.length).toBeGreaterThan(0);
      expect(appends).toHaveBeenCalled();
      // Every message the client got was read by our reader: the initialize answer and the listing at least.
      expect(reads.mock.results.filter((r) => r.type === 'return' && r.value !== null).length).toBeGreaterThanOrEqual(2);
    } finally {
      await client.close();
    }
  }, 30_000);
});
