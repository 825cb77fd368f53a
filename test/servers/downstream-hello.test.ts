// What a connection says in its 2025-era `initialize` (src/servers/downstream-hello.ts), checked
// against the SDK itself: the SDK client sends exactly downstreamInitializeParams, and the
// capabilities read from a client's raw first line (what serve's early handshake sends before the
// SDK has loaded) are the ones the gateway's session gets once the SDK server has parsed the same
// `initialize`, mirrored into a profile. A difference means an early child is stopped and started
// again (slow, never wrong); these tests catch an SDK release that changes either side.
import { describe, expect, it } from 'vitest';
import { Client, InMemoryTransport as ClientSideMemory } from '@modelcontextprotocol/client';
import { InMemoryTransport, Server } from '@modelcontextprotocol/server';
import { capabilitiesForClientLine, downstreamInitializeParams, GATEWAY_CLIENT_INFO, sameInitializeParams } from '../../src/servers/downstream-hello.js';
import { profileOf } from '../../src/servers/profile.js';

/** The params of the `initialize` an SDK client with `capabilities` sends (it gets no answer). */
async function sentInitialize(capabilities: Record<string, unknown>): Promise<unknown> {
  const [ours, theirs] = ClientSideMemory.createLinkedPair();
  const sent = new Promise<unknown>((resolve) => {
    theirs.onmessage = (message) => resolve((message as { params?: unknown }).params);
  });
  await theirs.start();
  const client = new Client({ ...GATEWAY_CLIENT_INFO }, { capabilities });
  const connecting = client.connect(ours, { timeout: 2_000 }).catch(() => undefined);
  const params = await sent;
  await client.close();
  await connecting;
  return params;
}

/** The client capabilities an SDK server reads from an `initialize` carrying `capabilities`. */
async function parsedByServer(capabilities: Record<string, unknown>): Promise<Record<string, unknown>> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const server = new Server({ name: 'probe', version: '1.0.0' }, { capabilities: {} });
  await server.connect(serverSide);
  const answered = new Promise<void>((resolve) => {
    clientSide.onmessage = () => resolve();
  });
  await clientSide.start();
  await clientSide.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities, clientInfo: { name: 'c', version: '1' } } });
  await answered;
  const parsed = server.getClientCapabilities() as Record<string, unknown>;
  await server.close();
  return parsed;
}

const line = (capabilities: unknown) => JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities, clientInfo: { name: 'c', version: '1' } } });

const CAPABILITY_CASES: Array<Record<string, unknown>> = [
  {},
  { roots: {} },
  { roots: { listChanged: true, unknownFlag: 1 } },
  { elicitation: {} },
  { elicitation: { form: {}, url: {} } },
  { elicitation: { form: { applyDefaults: true } } },
  { sampling: {} },
  { sampling: { tools: {}, context: {}, somethingNew: { a: 1 } } },
  { sampling: {}, elicitation: {}, roots: { listChanged: false }, experimental: { x: {} }, extensions: { 'io.example/ext': {} } },
];

describe('the initialize a connection sends downstream', () => {
  it('is what the SDK client sends, for any mirrored capabilities', async () => {
    for (const capabilities of [{}, { roots: { listChanged: true } }, { sampling: { tools: {} }, elicitation: { form: {} } }]) {
      const sent = await sentInitialize(capabilities);
      expect(sameInitializeParams(sent, downstreamInitializeParams(capabilities)), JSON.stringify(sent)).toBe(true);
    }
  });

  it('reads a client\'s capabilities from its raw first line as the gateway\'s session will have them', async () => {
    for (const capabilities of CAPABILITY_CASES) {
      const expected = profileOf(await parsedByServer(capabilities), undefined).capabilities;
      expect(capabilitiesForClientLine(line(capabilities)), JSON.stringify(capabilities)).toEqual(expected);
    }
  });

  it('sends nothing early for a first line it cannot read for sure', () => {
    expect(capabilitiesForClientLine('not json')).toBeUndefined();
    expect(capabilitiesForClientLine(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: {} }))).toBeUndefined();
    expect(capabilitiesForClientLine(JSON.stringify({ jsonrpc: '2.0', method: 'initialize', params: { protocolVersion: 'x', capabilities: {} } }))).toBeUndefined();
    expect(capabilitiesForClientLine(line({ sampling: 'yes' }))).toBeUndefined();
    expect(capabilitiesForClientLine(line({ roots: { listChanged: 'yes' } }))).toBeUndefined();
    expect(capabilitiesForClientLine(line({ elicitation: { form: 1 } }))).toBeUndefined();
    expect(capabilitiesForClientLine(line([]))).toBeUndefined();
  });

  it('compares two initializes whatever their key order', () => {
    expect(sameInitializeParams({ a: 1, b: { c: 2, d: [1, { e: 3, f: 4 }] } }, { b: { d: [1, { f: 4, e: 3 }], c: 2 }, a: 1 })).toBe(true);
    expect(sameInitializeParams({ a: 1 }, { a: 2 })).toBe(false);
    expect(sameInitializeParams({ a: 1 }, undefined)).toBe(false);
  });
});
