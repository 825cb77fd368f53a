// The stdio face as a client process sees it: stdout carries only JSON-RPC, invalid frames do not
// break the session, a server that cannot start leaves the others working, the gateway exits when
// stdin closes, and no child process survives it (nor a SIGTERM of the HTTP face).
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { CLI, REPO, dataDirFor, descendants, isAlive, npmServer, startHttpGateway, waitFor, writeConfig, connectHttp, newClient } from '../helpers/gateway.js';
import { z } from 'zod';

describe('stdio face', () => {
  it('speaks only JSON-RPC on stdout, survives invalid frames, and exits with no child left when stdin closes', async () => {
    const config = await writeConfig({
      memory: npmServer('memory', [], { MEMORY_FILE_PATH: '/tmp/switchboard-stdio-test-memory.jsonl' }),
      everything: npmServer('everything'),
      ghost: { command: 'switchboard-test-no-such-command' },
    });
    const gateway = spawn(process.execPath, [CLI, 'serve', '--stdio', '--config', config, ...dataDirFor(config)], { cwd: REPO, stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    gateway.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const lines: string[] = [];
    createInterface({ input: gateway.stdout }).on('line', (line) => lines.push(line));
    const exited = new Promise<number | null>((resolve) => gateway.once('exit', (code) => resolve(code)));
    const send = (message: unknown) => gateway.stdin.write(`${typeof message === 'string' ? message : JSON.stringify(message)}\n`);
    const response = (id: number) => waitFor(() => lines.map((l) => JSON.parse(l)).find((m) => m.id === id), `response ${id}`, 30_000);

    try {
      send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
      expect((await response(1)).result.serverInfo.name).toBe('switchboard');
      send({ jsonrpc: '2.0', method: 'notifications/initialized' });

      send('this is not json');
      send({ jsonrpc: '2.0', id: 2 }); // neither request nor response
      send({ foo: 'bar' });
      send({ jsonrpc: '2.0', id: 3, method: 'tools/list' });
      const tools = (await response(3)).result.tools.map((t: { name: string }) => t.name);
      expect(tools).toContain('memory_read_graph');
      expect(tools).toContain('everything_echo');
      expect(tools.some((n: string) => n.startsWith('ghost'))).toBe(false);
      expect(stderr).toContain('command not found');

      send({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'everything_echo', arguments: { message: 'after garbage' } } });
      expect((await response(4)).result.content[0].text).toBe('Echo: after garbage');

      // Every stdout line is a JSON-RPC message.
      for (const line of lines) expect(JSON.parse(line).jsonrpc).toBe('2.0');

      const children = await descendants(gateway.pid!);
      expect(children.length).toBeGreaterThanOrEqual(2);
      gateway.stdin.end();
      expect(await exited).toBe(0);
      await waitFor(() => children.every((pid) => !isAlive(pid)), 'every child of the gateway to exit', 15_000);
    } finally {
      if (gateway.exitCode === null) gateway.kill('SIGKILL');
    }
  });
});

describe('HTTP face shutdown', () => {
  it('stops every child on SIGTERM', async () => {
    const config = await writeConfig({ everything: npmServer('everything') });
    const gateway = await startHttpGateway(config);
    const { client } = await connectHttp(gateway.url, newClient());
    await client.request({ method: 'tools/list', params: {} }, z.any());
    const children = await descendants(gateway.child.pid!);
    expect(children.length).toBeGreaterThanOrEqual(1);
    const exited = new Promise<number | null>((resolve) => gateway.child.once('exit', (code) => resolve(code)));
    gateway.child.kill('SIGTERM');
    expect(await exited).toBe(0);
    await waitFor(() => children.every((pid) => !isAlive(pid)), 'every child of the gateway to exit', 15_000);
  });
});
