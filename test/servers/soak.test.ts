// Soak: 10,000 calls from 32 concurrent HTTP clients, 5% of them hitting injected faults. Every
// response must match its request, the gateway must not crash or log an unhandled rejection, and
// afterwards no session or extra process may be left. Bounded in count and time.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ProtocolError } from '@modelcontextprotocol/client';
import { connectHttp, descendants, fixtureServer, newClient, startHttpGateway, waitFor, writeConfig } from '../helpers/gateway.js';

const ANY = z.any();
const TOTAL_CALLS = 10_000;
const CLIENTS = 32;
const FAULT_RATE = 0.05;

type Expectation = { name: string; args: Record<string, unknown>; check: (outcome: { result?: any; error?: unknown }) => void };

function plan(n: number, random: () => number): Expectation {
  const id = `c${n}`;
  if (random() >= FAULT_RATE) {
    const server = n % 2 ? 'a' : 'b';
    return { name: `${server}_ok`, args: { text: id }, check: ({ result }) => expect(result?.content[0].text).toBe(`ok: ${id}`) };
  }
  switch (n % 4) {
    case 0:
      return { name: 'a_fail', args: {}, check: ({ error }) => expect((error as ProtocolError).code).toBe(-32000) };
    case 1:
      return { name: 'b_tool_error', args: {}, check: ({ result }) => expect(result?.isError).toBe(true) };
    case 2:
      return { name: 'a_garbage', args: {}, check: ({ result }) => expect(result?.content.length).toBeGreaterThan(0) };
    default:
      return { name: 'b_slow', args: { ms: 20 }, check: ({ result }) => expect(result?.content[0].text).toBe('slow: answered after 20 ms') };
  }
}

/** A small seeded generator so a failing run can be reproduced. */
function seeded(seed: number): () => number {
  let x = seed;
  return () => ((x = (x * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
}

describe('soak', () => {
  it(`${TOTAL_CALLS} calls from ${CLIENTS} clients with ${FAULT_RATE * 100}% faults`, { timeout: 240_000 }, async () => {
    const config = await writeConfig({ a: fixtureServer('fault-server.ts'), b: fixtureServer('fault-server.ts') }, { requestTimeoutMs: 10_000 });
    const gateway = await startHttpGateway(config, ['--log-level', 'warn']);
    try {
      const clients = await Promise.all(Array.from({ length: CLIENTS }, () => connectHttp(gateway.url, newClient())));
      const random = seeded(42);
      let next = 0;
      let faults = 0;
      const deadline = Date.now() + 180_000;
      const worker = async (client: (typeof clients)[number]['client']) => {
        while (next < TOTAL_CALLS && Date.now() < deadline) {
          const n = next++;
          const expectation = plan(n, random);
          if (!expectation.name.endsWith('_ok')) faults++;
          const outcome = await client.request({ method: 'tools/call', params: { name: expectation.name, arguments: expectation.args } }, ANY).then(
            (result) => ({ result }),
            (error: unknown) => ({ error }),
          );
          expectation.check(outcome);
        }
      };
      await Promise.all(clients.map((c) => worker(c.client)));
      expect(next).toBe(TOTAL_CALLS);
      expect(faults).toBeGreaterThan(TOTAL_CALLS * FAULT_RATE * 0.5);

      // Two servers, one capability profile: exactly two children (each may be a tsx loader pair).
      const children = await descendants(gateway.child.pid!);
      expect(children.length).toBeGreaterThanOrEqual(2);
      expect(children.length).toBeLessThanOrEqual(4);

      await Promise.all(clients.map((c) => c.close()));
      await waitFor(async () => (await (await fetch(`${gateway.url}/api/servers`)).json()).sessions === 0, 'every session to end');
      expect(gateway.child.exitCode).toBeNull();
      expect(gateway.log.text()).not.toMatch(/unhandled/i);
    } finally {
      await gateway.close();
    }
  });
});
