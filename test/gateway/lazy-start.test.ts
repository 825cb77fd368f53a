// Lazy start: with 20 configured servers and a warm cache, the first tools/list answers before any
// server is started, and a call starts only its own server. `lazy: false` and `preconnect` start
// servers at boot; a server never seen before is listed once in the background and stopped again.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CLI, REPO, connectStdio, dataDirFor, descendants, fixtureServer, isAlive, startHttpGateway, waitFor, writeConfig } from '../helpers/gateway.js';

const ANY = z.any();
const run = promisify(execFile);

function rawServer(name: string) {
  return fixtureServer('raw-server.ts', [`--marker=${name}`], { RAW_SERVER_NAME: name });
}

/** The fixture names of the raw servers running under a process. */
async function runningServers(pid: number): Promise<string[]> {
  const names: string[] = [];
  for (const child of await descendants(pid)) {
    try {
      const marker = readFileSync(`/proc/${child}/cmdline`, 'utf8').split('\0').find((a) => a.startsWith('--marker='));
      if (marker) names.push(marker.slice('--marker='.length));
    } catch {
      // gone
    }
  }
  return names.sort();
}

describe('lazy start', () => {
  it('answers the first tools/list from the cache with no server started; a call starts only its server', { timeout: 120_000 }, async () => {
    const servers = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`s${i}`, rawServer(`s${i}`)]));
    const config = await writeConfig(servers);
    // Warm the cache: list every server once (what a previous run of the gateway leaves behind).
    await run(process.execPath, [CLI, 'tools', '--config', config, ...dataDirFor(config)], { cwd: REPO, timeout: 90_000 });

    const connected = await connectStdio(config);
    try {
      const { tools } = await connected.client.request({ method: 'tools/list', params: {} }, ANY);
      const names = tools.map((t: { name: string }) => t.name);
      for (let i = 0; i < 20; i++) expect(names).toContain(`s${i}_echo`);
      expect(await runningServers(connected.pid!)).toEqual([]);

      const result = await connected.client.request({ method: 'tools/call', params: { name: 's7_echo', arguments: { x: 1 } } }, ANY);
      expect(JSON.parse(result.content[0].text)).toEqual({ tool: 'echo', arguments: { x: 1 } });
      expect(await runningServers(connected.pid!)).toEqual(['s7']);
    } finally {
      await connected.close();
    }
  });

  it('starts lazy: false and preconnect servers at boot, and discovers a never-seen server once', { timeout: 60_000 }, async () => {
    const config = await writeConfig(
      { eager: { ...rawServer('eager'), lazy: false }, listed: rawServer('listed'), fresh: rawServer('fresh') },
      { preconnect: ['listed'] },
    );
    // HTTP face with no client: only boot-time starts happen.
    const gateway = await startHttpGateway(config);
    try {
      await waitFor(async () => {
        const running = await runningServers(gateway.child.pid!);
        return running.includes('eager') && running.includes('listed');
      }, 'eager and preconnect servers to start at boot');
      // "fresh" was never listed: it is started in the background, listed, and stopped.
      await waitFor(() => gateway.log.records().some((r) => r.msg === 'connected' && r.server === 'fresh'), 'the never-seen server to be discovered', 20_000);
      await waitFor(async () => !(await runningServers(gateway.child.pid!)).includes('fresh'), 'the discovered server to stop again', 20_000);
      expect(await runningServers(gateway.child.pid!)).toEqual(['eager', 'listed']);
    } finally {
      const tree = await descendants(gateway.child.pid!);
      await gateway.close();
      await waitFor(() => tree.every((pid) => !isAlive(pid)), 'every child to exit');
    }
  });
});
