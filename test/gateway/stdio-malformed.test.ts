// Malformed input on the stdio face (issue #14, reproduced list point 7): invalid JSON gets -32700,
// malformed requests get -32600 with their id, invalid params get -32602 with a readable message,
// and every request with an id is answered; 100k-deep arguments are the client's error (-32602), never
// the server's fault, so they open no circuit (reproduced list point 3, on this face). Runs the real
// gateway CLI over a real pipe.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { CLI, REPO, dataDirFor, npmServer, stopChild, waitFor, writeConfig } from '../helpers/gateway.js';

type Reply = { id: string | number | null; result?: unknown; error?: { code: number; message: string } };

/** A stdio gateway spoken to line by line: every JSON line it writes is collected in `replies`. */
function rawStdioGateway(config: string, level: string) {
  const child = spawn(process.execPath, [CLI, 'serve', '--stdio', '--config', config, ...dataDirFor(config), '--log-level', level], { cwd: REPO, stdio: ['pipe', 'pipe', 'pipe'] });
  const replies: Reply[] = [];
  let pending = '';
  child.stdout.on('data', (chunk: Buffer) => {
    pending += chunk.toString();
    const lines = pending.split('\n');
    pending = lines.pop()!;
    for (const line of lines) if (line.trim()) replies.push(JSON.parse(line) as Reply);
  });
  return { child, replies, send: (line: string) => child.stdin.write(`${line}\n`) };
}

describe('stdio face: malformed input', () => {
  it('answers invalid JSON and malformed requests with JSON-RPC errors, and every request with an id', async () => {
    const config = await writeConfig({ everything: npmServer('everything') });
    const { child, replies, send } = rawStdioGateway(config, 'warn');
    try {
      send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } } }));
      await waitFor(() => replies.find((r) => r.id === 1), 'initialize');
      send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
      send('{not json');
      send(JSON.stringify({ id: 2, method: 'tools/list' })); // no "jsonrpc"
      send(JSON.stringify({ jsonrpc: '2.0', id: 3 })); // neither method nor result
      send(JSON.stringify({ jsonrpc: '2.0', id: 4, method: 42 }));
      send('[1,2,3]');
      send(JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 17 } }));
      send(JSON.stringify({ jsonrpc: '2.0', id: 6, method: 'no/such/method' }));
      send(JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list' }));
      await waitFor(() => [2, 3, 4, 5, 6, 7].every((id) => replies.some((r) => r.id === id)) && replies.filter((r) => r.id === null).length >= 2, 'every reply');
      const byId = (id: number) => replies.find((r) => r.id === id)!;
      expect(replies.filter((r) => r.id === null).map((r) => r.error!.code)).toEqual([-32700, -32600]);
      expect(byId(2).error!.code).toBe(-32600);
      expect(byId(3).error!.code).toBe(-32600);
      expect(byId(4).error!.code).toBe(-32600);
      expect(byId(5).error).toMatchObject({ code: -32602, message: expect.stringContaining('"name" must be a string') });
      expect(byId(6).error!.code).toBe(-32601);
      expect(Array.isArray((byId(7).result as { tools: unknown[] }).tools)).toBe(true);
    } finally {
      await stopChild(child);
    }
  }, 60_000);

  it('refuses 100k-deep arguments with -32602: no circuit opened, the next call works', async () => {
    const config = await writeConfig({ everything: npmServer('everything') });
    const { child, replies, send } = rawStdioGateway(config, 'info');
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const reply = (id: number) => waitFor(() => replies.find((r) => r.id === id), `the answer to request ${id}`, 30_000);
    try {
      send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'deep', version: '1' } } }));
      await reply(1);
      send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
      // The server is up and answering before the deep calls, so a fault counted against it would show.
      send(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'everything_echo', arguments: { message: 'before' } } }));
      expect(JSON.stringify((await reply(2)).result)).toContain('before');
      // Written by hand: JSON.stringify itself overflows the stack on 100k levels. Five calls: as many
      // as the reproduced report needed to open the shared breaker.
      const deepArgs = `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`;
      for (let i = 0; i < 5; i++) send(`{"jsonrpc":"2.0","id":${100 + i},"method":"tools/call","params":{"name":"everything_echo","arguments":{"message":${deepArgs}}}}`);
      for (let i = 0; i < 5; i++) {
        const answer = await reply(100 + i);
        expect(answer.error).toMatchObject({ code: -32602, message: expect.stringContaining('nested deeper than 64 levels') });
      }
      send(JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'everything_echo', arguments: { message: 'still here' } } }));
      const after = await reply(3);
      expect(after.error).toBeUndefined();
      expect(JSON.stringify(after.result)).toContain('still here');
      expect(child.exitCode).toBeNull();
      // Logged at warn when a breaker opens: never here.
      expect(stderr).not.toContain('circuit open');
    } finally {
      await stopChild(child);
    }
  }, 60_000);
});
