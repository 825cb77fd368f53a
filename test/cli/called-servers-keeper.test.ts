// When serve writes recent-servers.json (src/cli/called-servers-keeper.ts), on a real data dir: not
// while calls are still coming, once they have settled (or have kept coming for a minute), at
// shutdown only what changed, and never the same content twice (the file is not even replaced).
// The source is the Gateway's shape as plain data: the server keys, their identities, and when each
// was last called.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { CalledServersKeeper } from '../../src/cli/called-servers-keeper.js';
import { readRecentServers } from '../../src/cli/recent-servers.js';
import { tempDir } from '../helpers/gateway.js';

const log = pino({ level: 'silent' });

/** Servers a and b with identities id-a and id-b; `calledAt` is what the call counts say. */
function source() {
  const calledAt = new Map<string, number>();
  return {
    calledAt,
    pool: { keys: () => ['a', 'b'], identity: (key: string) => `id-${key}` },
    calls: { lastCalledAt: (server: string) => calledAt.get(server) },
  };
}

async function keeperFor(now?: () => number) {
  const dataDir = path.join(await tempDir('switchboard-recent-'), 'data');
  const servers = source();
  const keeper = new CalledServersKeeper(servers, { dataDir, log, ...(now && { now }) });
  const file = path.join(dataDir, 'recent-servers.json');
  /** The file's inode: a rewrite (temporary file renamed over it) changes it. */
  const inode = () => statSync(file).ino;
  return { keeper, servers, dataDir, file, inode };
}

describe('recent-servers.json, written when the gateway is quiet', () => {
  it('waits while calls keep coming and writes once they have settled', async () => {
    const { keeper, servers, dataDir } = await keeperFor();
    const t = Date.now();
    servers.calledAt.set('a', t);
    expect(keeper.check()).toBe(false); // first look: nothing to compare with yet
    servers.calledAt.set('a', t + 1);
    expect(keeper.check()).toBe(false); // changed since the last look: calls are coming
    expect(readRecentServers(dataDir).size).toBe(0);
    expect(keeper.check()).toBe(true); // unchanged for one look: settled
    expect([...readRecentServers(dataDir)]).toEqual([['id-a', t + 1]]);
  });

  it('never writes the same content again: an unchanged snapshot, and a file that would come out the same', async () => {
    const { keeper, servers, dataDir, file, inode } = await keeperFor();
    servers.calledAt.set('b', Date.now());
    keeper.check();
    expect(keeper.check()).toBe(true);
    const written = inode();
    const text = readFileSync(file, 'utf8');
    expect(keeper.check()).toBe(false);
    expect(keeper.flush()).toBe(false); // shutdown with nothing new
    expect(inode()).toBe(written);

    // The next run starts with the same history: its first write finds the file as it would write it.
    const nextRun = new CalledServersKeeper(servers, { dataDir, log });
    nextRun.check();
    expect(nextRun.check()).toBe(false);
    expect(nextRun.flush()).toBe(false);
    expect(inode()).toBe(written);
    expect(readFileSync(file, 'utf8')).toBe(text);
  });

  it('writes at shutdown what changed since the last write, settled or not', async () => {
    const { keeper, servers, dataDir } = await keeperFor();
    const t = Date.now();
    servers.calledAt.set('a', t);
    keeper.check();
    keeper.check();
    servers.calledAt.set('b', t + 5);
    expect(keeper.check()).toBe(false); // still coming
    expect(keeper.flush()).toBe(true);
    expect(Object.fromEntries(readRecentServers(dataDir))).toEqual({ 'id-a': t, 'id-b': t + 5 });
  });

  it('writes calls that never pause after a minute anyway', async () => {
    let clock = 0;
    const { keeper, servers, dataDir } = await keeperFor(() => clock);
    const t = Date.now();
    for (let look = 0; look < 20; look++) {
      servers.calledAt.set('a', t + look);
      const wrote = keeper.check();
      expect(wrote).toBe(clock >= 60_000);
      if (wrote) break;
      clock += 5_000;
    }
    expect(readRecentServers(dataDir).get('id-a')).toBeGreaterThanOrEqual(t);
  });
});
