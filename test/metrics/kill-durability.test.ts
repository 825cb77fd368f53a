// Call metrics survive a kill -9 of the gateway: a real HTTP gateway in front of fault-server.ts answers
// a stream of sequential calls, is SIGKILLed while calls are still being made, and afterwards the store
// holds every call the client got an answer for (and at most the one that was in flight on top), with
// the call journal memory-mapped (the native addon) and appended with write(2).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/store/index.js';
import { journalMapping } from '../../src/store/journal-mmap.js';
import { connectHttp, dataDirFor, descendants, fixtureServer, isAlive, startHttpGateway, waitFor, writeConfig } from '../helpers/gateway.js';

const ANSWERS_BEFORE_KILL = 150;

describe.each(['mmap', 'write'] as const)('metrics durability (call journal: %s)', (mode) => {
  it.skipIf(mode === 'mmap' && !journalMapping().mapper)('keeps every answered call when the gateway is SIGKILLed mid-burst', async () => {
    const config = await writeConfig({ fault: fixtureServer('fault-server.ts') });
    const dataDir = dataDirFor(config)[1]!;
    const gateway = await startHttpGateway(config, [], { SWITCHBOARD_CALL_JOURNAL: mode });
    expect(gateway.log.records().find((r) => r.msg === 'call journal')).toMatchObject({ mode });
    const gatewayPid = gateway.child.pid!;
    const exit = new Promise<NodeJS.Signals | null>((resolve) => gateway.child.once('exit', (_code, signal) => resolve(signal)));
    const user = await connectHttp(gateway.url);
    let children: number[] = [];
    try {
      let answered = 0;
      let stopped = false;
      let lastError: unknown;
      const burst = (async () => {
        while (!stopped) {
          try {
            const result = await user.client.callTool({ name: 'fault_ok', arguments: { text: String(answered) } }, { timeout: 10_000 });
            expect(result.content).toEqual([{ type: 'text', text: `ok: ${answered}` }]);
            answered += 1;
          } catch (error) {
            lastError = error;
            return;
          }
        }
      })();

      await waitFor(() => answered >= ANSWERS_BEFORE_KILL || lastError !== undefined, `${ANSWERS_BEFORE_KILL} answered calls`, 30_000);
      expect(lastError).toBeUndefined();
      children = await descendants(gatewayPid);
      process.kill(gatewayPid, 'SIGKILL'); // while the burst goes on: the next call is usually in flight
      expect(await exit).toBe('SIGKILL');
      const answeredBeforeKill = answered;
      stopped = true;
      await Promise.race([burst, new Promise((resolve) => setTimeout(resolve, 15_000))]);
      expect(answered).toBe(answeredBeforeKill); // nothing answers after the kill
      expect(answered).toBeGreaterThanOrEqual(ANSWERS_BEFORE_KILL);

      // The process died without closing the store: its last commits are in the WAL.
      expect(existsSync(path.join(dataDir, 'switchboard.db-wal'))).toBe(true);
      const store = openDatabase(dataDir);
      try {
        const [ok, ...others] = store.metrics.toolStats({ server: 'fault' });
        expect(others).toEqual([]);
        expect(ok).toMatchObject({ server: 'fault', tool: 'ok', failures: 0, cancelled: 0 });
        expect(ok!.calls).toBeGreaterThanOrEqual(answered); // every answered call was recorded
        expect(ok!.calls).toBeLessThanOrEqual(answered + 1); // plus at most the one in flight, never twice
        expect(ok!.successes).toBe(ok!.calls);
      } finally {
        store.close();
      }
    } finally {
      await user.close().catch(() => undefined);
      await gateway.close();
      // fault-server exits when its stdin (the dead gateway's pipe) closes; make sure nothing stays behind.
      await waitFor(() => children.every((pid) => !isAlive(pid)), 'the gateway\u2019s children to exit', 10_000).catch(() => {
        for (const pid of children) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
      });
    }
  }, 60_000);
});
