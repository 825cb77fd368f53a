// Which servers `serve --stdio` starts before the gateway loads (src/cli/serve-prestart.ts), with the
// real config loader and real children: those called lately (identities as the loader computes them,
// the most recent first, at most PRESTART_MAX_RECENT), eager ones, the only server; never one marked
// lazy: true, a disabled or remote one, an entry with an unset variable, or anything over HTTP.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { serverIdentity } from '../../src/servers/identity.js';
import { discardPrestarted } from '../../src/servers/prestart.js';
import { PRESTART_MAX_RECENT, prestartServe } from '../../src/cli/serve-prestart.js';
import { writeRecentServers } from '../../src/cli/recent-servers.js';
import { tempDir } from '../helpers/gateway.js';

/** A child that stays up until its stdin ends (what it runs does not matter here). */
const idle = (tag: string, extra: Record<string, unknown> = {}) => ({ command: process.execPath, args: ['-e', 'process.stdin.resume()', tag], env: { TAG: tag }, ...extra });

async function setUp(servers: Record<string, unknown>, switchboard: Record<string, unknown> = {}) {
  const dir = await tempDir('switchboard-prestart-');
  const file = path.join(dir, '.mcp.json');
  await writeFile(file, JSON.stringify({ mcpServers: servers, switchboard }));
  const dataDir = path.join(dir, 'data');
  await mkdir(dataDir);
  const config = await loadConfig(file);
  const identity = (key: string) => serverIdentity(config.servers.find((s) => s.key === key)!);
  return { file, dataDir, identity };
}

const keysOf = (outcome: ReturnType<typeof prestartServe>) => outcome.started.map((s) => `${s.key}:${s.why}`).sort();

afterEach(async () => {
  await discardPrestarted(undefined);
});

describe('the early start of serve --stdio', () => {
  it('starts the servers called lately, by the loader\'s identities, and eager ones; never lazy: true, disabled or remote', async () => {
    const { file, dataDir, identity } = await setUp({
      called: idle('called', { cwd: '.', enabledTools: ['a'] }),
      idleOne: idle('idle'),
      eager: { ...idle('eager'), lazy: false },
      held: { ...idle('held'), lazy: true },
      off: { ...idle('off'), disabled: true },
      remote: { type: 'http', url: 'http://127.0.0.1:9/mcp' },
      unset: idle('unset', { args: ['${SWITCHBOARD_TEST_SURELY_UNSET}'] }),
      preconnected: idle('pre'),
    }, { preconnect: ['preconnected'] });
    const now = Date.now();
    writeRecentServers(dataDir, new Map([[identity('called'), now - 1000], [identity('held'), now - 1000]]), now);
    const outcome = prestartServe(['--stdio', '--config', file, '--data-dir', dataDir]);
    expect(keysOf(outcome)).toEqual(['called:recent', 'eager:eager', 'preconnected:eager']);
  });

  it('starts the only server; at most the most recent few of many; nothing over HTTP or for calls older than 14 days', async () => {
    const only = await setUp({ only: idle('only') });
    expect(keysOf(prestartServe(['--config', only.file, '--data-dir', only.dataDir]))).toEqual(['only:only server']);
    await discardPrestarted(undefined);
    expect(prestartServe(['--http', '--config', only.file, '--data-dir', only.dataDir]).started).toEqual([]);

    const many = await setUp(Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`s${i}`, idle(`s${i}`)])));
    const now = Date.now();
    const day = 24 * 60 * 60 * 1000;
    writeRecentServers(many.dataDir, new Map([...Array.from({ length: 7 }, (_, i) => [many.identity(`s${i}`), now - i * 1000] as [string, number]), [many.identity('s7'), now - 15 * day]]), now - 15 * day);
    const started = prestartServe(['--config', many.file, '--data-dir', many.dataDir], process.env, now).started.map((s) => s.key);
    expect(started).toEqual(Array.from({ length: PRESTART_MAX_RECENT }, (_, i) => `s${i}`));
  });
});
