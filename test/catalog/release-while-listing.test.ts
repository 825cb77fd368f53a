// A connection released (stopped) while the catalog is re-listing its server must leave the last
// good listing in place. It used to read "no tools capability" from the stopped connection and
// store an empty tool list, so the next client found no tools at all ("Unknown tool") although the
// server had them. Real server-memory child processes; the stop lands at every point of the listing.
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Catalog } from '../../src/catalog/catalog.js';
import { parseConfig } from '../../src/config/load.js';
import { ServerPool } from '../../src/servers/pool.js';
import { BARE_PROFILE } from '../../src/servers/profile.js';
import { npmServer, tempDir } from '../helpers/gateway.js';

describe('a release in the middle of a listing', () => {
  const pool = new ServerPool({ requestTimeoutMs: 10_000 });
  afterAll(() => pool.close());

  it('keeps the last listing whatever moment the connection stops', { timeout: 120_000 }, async () => {
    const dir = await tempDir();
    const config = parseConfig(JSON.stringify({ mcpServers: { memory: npmServer('memory') } }), path.join(dir, '.mcp.json'), { ...process.env, MEMORY_FILE_PATH: path.join(dir, 'memory.jsonl') });
    await pool.apply(config.servers);
    const catalog = new Catalog(pool, BARE_PROFILE, { separator: '_', budget: 64 });
    await catalog.refresh('memory');
    const listed = catalog.listing('memory').tools.map((t) => t.name);
    expect(listed).toContain('create_entities');

    for (let ticks = 0; ticks < 12; ticks++) {
      await pool.connection('memory', BARE_PROFILE)!.start();
      const refresh = catalog.refresh('memory', ['tools']);
      for (let i = 0; i < ticks; i++) await Promise.resolve();
      await pool.releaseProfile(BARE_PROFILE.key);
      await refresh;
      expect(catalog.listing('memory').tools.map((t) => t.name), `stopped after ${ticks} microtask(s)`).toEqual(listed);
      expect(catalog.listing('memory').error).toBeUndefined();
    }
  });
});
