// Fuzz test (issue #14): 20,000 mutated JSON-RPC frames to each face of the real gateway (stdio over
// a pipe; Streamable HTTP on 127.0.0.1): no crash, every request with an id answered, and memory
// back near where it started. Frames are deterministic (seeded).
//
// "Where it started" is measured after a warm-up round of 2,000 frames of the same kind, so code
// compiled for the error paths, pools and the start-up work (catalog, budget check) are in the
// baseline, not counted as growth. Readings (test/fuzz/memory.ts):
// - after forced full collections (a preload in the child, --expose-gc): the live heap, what the
//   gateway retains (maps by id, sessions, logs, caches). The 20 % is asserted on it. RSS
//   read at the same moment is reported, not asserted (memory.ts says why).
// - RSS once the gateway has gone quiet, garbage and all (the start once it stopped falling; the end
//   as soon as it is back under 20 %, waiting as long at most). The 20 % is asserted on it
//   too. It comes back because `serve` collects its own heap a few seconds after a burst
//   (src/cli/idle-heap-trim.ts); V8's memory reducer alone took up to ~100 s on a busy machine, and
//   until then the uncollected garbage of the frames (pre-collection heapUsed 40 to 100 MB against a
//   live 26 MB) was in RSS. docs/security.md has the numbers.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, REPO, connectHttp, dataDirFor, newClient, npmServer, startHttpGateway, stopChild, waitFor, writeConfig } from '../helpers/gateway.js';
import { PROBE_NODE_ARGS, memoryAfterGc, rssBackUnderKb, settledRssKb, type CollectedMemory } from './memory.js';
import { mutatedFrame, owedId, prng } from './mutator.js';

const FRAMES = 20_000;
const WARM_UP_FRAMES = 2_000;
/** The bound: the retained (live) heap back within 20 % of the start. */
const HEAP_BOUND = 1.2;
/** The bound on the settled RSS: back within 20 % of the start. */
const RSS_GOAL = 1.2;

const mb = (bytes: number) => Math.round(bytes / 1048576 * 10) / 10;

/** Asserts the bounds on the live heap and the settled RSS; reports RSS after collections too. */
function expectMemoryBack(face: string, startRss: number, endRss: number, start: CollectedMemory, end: CollectedMemory): void {
  const report = `settled RSS ${startRss} -> ${endRss} kB; after full collections: heap ${mb(start.heapUsed)} -> ${mb(end.heapUsed)} MB, RSS ${mb(start.rss)} -> ${mb(end.rss)} MB`;
  console.info(`fuzz ${face}: ${report}`);
  expect(end.heapUsed, report).toBeLessThan(start.heapUsed * HEAP_BOUND);
  expect(endRss, report).toBeLessThan(startRss * RSS_GOAL);
}

function frames(seed: number, count: number, firstId: number): string[] {
  const random = prng(seed);
  return Array.from({ length: count }, (_, i) => mutatedFrame(random, firstId + i));
}

describe('fuzzing both faces', () => {
  it(`stdio: ${FRAMES} mutated frames, every request with an id answered, no crash, live heap and RSS back within 20 %`, async () => {
    const face = 'stdio';
    const config = await writeConfig({ everything: npmServer('everything') });
    const probe = path.join(path.dirname(config), 'memory-probe.jsonl');
    const child = spawn(process.execPath, [...PROBE_NODE_ARGS, CLI, 'serve', '--stdio', '--config', config, ...dataDirFor(config), '--log-level', 'error'], {
      cwd: REPO,
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, SWITCHBOARD_MEMORY_PROBE: probe },
    });
    const owed = new Map<string, number>();
    let pending = '';
    let unparseable = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      pending += chunk.toString();
      const lines = pending.split('\n');
      pending = lines.pop()!;
      for (const line of lines) {
        let reply: { id?: unknown };
        try {
          reply = JSON.parse(line) as { id?: unknown };
        } catch {
          unparseable++;
          continue;
        }
        const key = JSON.stringify(reply.id ?? null);
        const left = owed.get(key);
        if (left !== undefined) left <= 1 ? owed.delete(key) : owed.set(key, left - 1);
      }
    });
    const write = (line: string) => new Promise<void>((resolve) => (child.stdin.write(`${line}\n`) ? resolve() : child.stdin.once('drain', () => resolve())));
    const expect_ = (id: string | number) => owed.set(JSON.stringify(id), (owed.get(JSON.stringify(id)) ?? 0) + 1);
    /** Writes every frame, then waits until every request with an id has its answer (or the gateway died). */
    const send = async (batch: string[], what: string) => {
      for (const frame of batch) {
        const id = owedId(frame);
        if (id !== undefined) expect_(id);
        await write(frame);
      }
      await waitFor(() => owed.size === 0 || child.exitCode !== null, what, 120_000).catch(() => undefined);
      expect(child.exitCode).toBeNull();
      expect([...owed.keys()].slice(0, 10)).toEqual([]);
    };
    try {
      expect_('init');
      await write(JSON.stringify({ jsonrpc: '2.0', id: 'init', method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } } }));
      await write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
      await send(frames(1414, WARM_UP_FRAMES, 1_000_000), 'every warm-up request to be answered');
      const startRss = await settledRssKb(child.pid!);
      const start = await memoryAfterGc(child.pid!, probe);

      await send(frames(14, FRAMES, 0), 'every request with an id to be answered');
      expect(unparseable).toBe(0);
      const endRss = await rssBackUnderKb(child.pid!, startRss * RSS_GOAL);
      expectMemoryBack(face, startRss, endRss, start, await memoryAfterGc(child.pid!, probe));
    } finally {
      await stopChild(child);
    }
  }, 400_000);

  it(`HTTP: ${FRAMES} mutated frames on a live session, every request answered, no crash, live heap and RSS back within 20 %`, async () => {
    const face = 'HTTP';
    const config = await writeConfig({ everything: npmServer('everything') });
    const probe = path.join(path.dirname(config), 'memory-probe.jsonl');
    const gateway = await startHttpGateway(config, ['--log-level', 'error'], { SWITCHBOARD_MEMORY_PROBE: probe }, PROBE_NODE_ARGS);
    const pid = gateway.child.pid!;
    try {
      const user = await connectHttp(gateway.url, newClient());
      await user.client.callTool({ name: 'everything_echo', arguments: { message: 'warm' } });
      const sessionId = (user.client.transport as unknown as { sessionId: string }).sessionId;
      const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' };
      /** Posts every frame (8 at a time); returns what went wrong: server errors and requests left unanswered. */
      const send = async (batch: string[]): Promise<string[]> => {
        let next = 0;
        const failures: string[] = [];
        const worker = async () => {
          while (next < batch.length) {
            const frame = batch[next++]!;
            const id = owedId(frame);
            let response: Response;
            let text: string;
            try {
              response = await fetch(`${gateway.url}/mcp`, { method: 'POST', headers, body: frame });
              text = await response.text();
            } catch (error) {
              failures.push(`${(error as Error).message} (${String((error as Error).cause)}) for ${frame.slice(0, 200)}`);
              continue;
            }
            if (response.status >= 500) failures.push(`${response.status} for ${frame.slice(0, 80)}`);
            if (id === undefined) continue;
            // An answer to the request: a JSON-RPC message with its id (SSE or JSON), or an HTTP-level JSON-RPC error.
            const body = /^data: (.*)$/m.exec(text)?.[1] ?? text;
            let reply: { id?: unknown; error?: unknown; result?: unknown } | undefined;
            try {
              reply = JSON.parse(body) as typeof reply;
            } catch {
              reply = undefined;
            }
            const answered = reply && (reply.id === id || (reply.id === null && response.status >= 400)) && ('result' in reply || 'error' in reply);
            if (!answered) failures.push(`no answer for ${frame.slice(0, 80)}: ${response.status} ${text.slice(0, 120)}`);
          }
        };
        await Promise.all(Array.from({ length: 8 }, worker));
        return failures;
      };
      expect((await send(frames(4141, WARM_UP_FRAMES, 1_000_000))).slice(0, 5)).toEqual([]);
      const startRss = await settledRssKb(pid);
      const start = await memoryAfterGc(pid, probe);

      const failures = await send(frames(41, FRAMES, 0));
      expect(failures.slice(0, 5), `${failures.length} failures`).toEqual([]);
      expect(gateway.child.exitCode).toBeNull();
      const endRss = await rssBackUnderKb(pid, startRss * RSS_GOAL);
      expectMemoryBack(face, startRss, endRss, start, await memoryAfterGc(pid, probe));
      await user.close();
    } finally {
      await gateway.close();
    }
  }, 600_000);
});
