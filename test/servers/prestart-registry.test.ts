// The registry of children started early (src/servers/prestart.ts) with real child processes: a
// connection adopts a child only when it was started exactly as the connection would start it (any
// other is stopped), one adoption per child, unadopted ones are stopped on demand; the spec's safe
// environment is the SDK's own. A connection that finds a child started differently says so in its log.
import { describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import { loadConfig } from '../../src/config/index.js';
import { buildTransport } from '../../src/servers/transport.js';
import { claimPrestarted, discardPrestarted, hasPrestarted, initializeEarly, prestart, prestartedKeys } from '../../src/servers/prestart.js';
import { EARLY_INITIALIZE_ID } from '../../src/servers/downstream-hello.js';
import { downstreamInitializeParams } from '../../src/servers/downstream-hello.js';
import { safeBaseEnvironment, stdioSpawnSpec } from '../../src/servers/spawn-spec.js';
import { isAlive, waitFor, writeConfig } from '../helpers/gateway.js';

/** A child that stays up until its stdin ends. */
const idle = (tag: string) => stdioSpawnSpec({ command: process.execPath, args: ['-e', 'process.stdin.resume(); process.stdin.on("end", () => process.exit(0))', tag], env: {} });

describe('children started early', () => {
  it('gives the safe base environment the SDK gives', () => {
    expect(safeBaseEnvironment()).toEqual(getDefaultEnvironment());
  });

  it('hands a child over once, to a connection that would start it the same way', async () => {
    expect(hasPrestarted('same')).toBe(false);
    prestart('same', idle('same'));
    expect(hasPrestarted('same')).toBe(true);
    const adopted = claimPrestarted('same', idle('same'));
    expect(adopted?.child.pid).toBeGreaterThan(0);
    expect(hasPrestarted('same')).toBe(false);
    expect(claimPrestarted('same', idle('same'))).toBeUndefined();
    adopted!.child.stdin!.end();
    await waitFor(() => !isAlive(adopted!.child.pid!), 'the adopted child to exit when its stdin ends');
  });

  it('stops a child started differently instead of handing it over', async () => {
    const early = prestart('changed', idle('before'));
    expect(claimPrestarted('changed', idle('after'))).toBeUndefined();
    expect(prestartedKeys()).not.toContain('changed');
    await waitFor(() => !isAlive(early.child.pid!), 'the mismatched child to be stopped');
  });

  it('stops the children nobody adopted, keeping those asked for', async () => {
    prestart('kept', idle('kept'));
    prestart('unused', idle('unused'));
    const stopped = await discardPrestarted(undefined, (entry) => entry.key === 'kept');
    expect(stopped).toEqual(['unused']);
    expect(prestartedKeys()).toEqual(['kept']);
    const kept = claimPrestarted('kept', idle('kept'))!;
    expect(isAlive(kept.child.pid!)).toBe(true);
    kept.child.stdin!.end();
    expect(await discardPrestarted(undefined)).toEqual([]);
  });

  it('warns in the connection\'s log when the configuration starts the server differently from its early child', async () => {
    const early = prestart('edited', idle('as started early'));
    const config = await loadConfig(await writeConfig({ edited: { command: process.execPath, args: ['-e', 'process.stdin.resume()', 'as configured now'] } }));
    const warnings: Array<{ server?: string; msg?: string }> = [];
    const log = pino({ level: 'warn' }, { write: (line: string) => void warnings.push(JSON.parse(line)) });
    const built = buildTransport(config.servers[0]!, { log });
    expect(built.pid?.()).toBeNull(); // its own child is not started yet: nothing to stop here
    expect(warnings).toEqual([expect.objectContaining({ server: 'edited', msg: expect.stringContaining('started differently than its configuration says') })]);
    await waitFor(() => !isAlive(early.child.pid!), 'the child started differently to be stopped');
  });

  it('sends each waiting child the early initialize once, and hands it only to a connection that would send the same', async () => {
    /** A child that writes back each line it reads, so what it was sent can be read from its stdout. */
    const echo = (tag: string) => stdioSpawnSpec({ command: process.execPath, args: ['-e', 'process.stdin.pipe(process.stdout)', tag], env: {} });
    const same = prestart('hello-same', echo('same'));
    const other = prestart('hello-other', echo('other'));
    const bare = downstreamInitializeParams({});
    expect(initializeEarly(bare).sort()).toEqual(['hello-other', 'hello-same']);
    expect(initializeEarly(downstreamInitializeParams({ roots: {} }))).toEqual([]); // once per child
    const firstLine = await new Promise<string>((resolve) => same.child.stdout!.once('data', (chunk: Buffer) => resolve(chunk.toString('utf8'))));
    expect(JSON.parse(firstLine)).toEqual({ jsonrpc: '2.0', id: EARLY_INITIALIZE_ID, method: 'initialize', params: bare });

    // Key order does not matter; the connection's capabilities do.
    expect(claimPrestarted('hello-same', echo('same'), undefined, { clientInfo: bare.clientInfo, capabilities: {}, protocolVersion: bare.protocolVersion })).toBe(same);
    const infos: Array<{ msg?: string }> = [];
    const log = pino({ level: 'info' }, { write: (line: string) => void infos.push(JSON.parse(line)) });
    expect(claimPrestarted('hello-other', echo('other'), log, downstreamInitializeParams({ sampling: {} }))).toBeUndefined();
    expect(infos).toEqual([expect.objectContaining({ msg: expect.stringContaining('initialized for other client capabilities') })]);
    await waitFor(() => !isAlive(other.child.pid!), 'the child initialized for other capabilities to be stopped');
    same.child.stdin!.end();
    await waitFor(() => !isAlive(same.child.pid!), 'the adopted child to exit');
  });
});
