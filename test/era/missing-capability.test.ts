// A 2026-07-28 client that did not declare a capability the server needs gets -32021
// (MissingRequiredClientCapability, HTTP 400) naming it, as the spec asks, although the server behind
// the gateway speaks the 2025 era: the gateway's connection declared no sampling, so the fixture's SDK
// refuses to ask for it (its legacy shim answers with an isError result), and the gateway turns that
// refusal into the 2026-07-28 error. A 2025-era session still gets the server's own answer, and a
// modern client that declared sampling is asked for it (input_required) instead.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectHttp, fixtureServer, startHttpGateway, writeConfig, type RunningGateway } from '../helpers/gateway.js';
import { postModern, MODERN_META } from '../helpers/wire.js';

describe('an undeclared capability, through a 2025-era downstream', () => {
  let gateway: RunningGateway;

  beforeAll(async () => {
    gateway = await startHttpGateway(await writeConfig({ fixture: fixtureServer('conformance-server.ts', ['--stdio']) }));
  }, 60_000);
  afterAll(async () => {
    await gateway?.close();
  });

  for (const [endpoint, tool] of [
    ['/servers/fixture/mcp', 'test_missing_capability'],
    ['/mcp', 'fixture_test_missing_capability'],
  ] as const) {
    it(`${endpoint}: a 2026-07-28 request without sampling gets -32021 with HTTP 400`, { timeout: 60_000 }, async () => {
      const reply = await postModern(`${gateway.url}${endpoint}`, { id: 7, method: 'tools/call', params: { name: tool, arguments: {} } });
      expect(reply.status).toBe(400);
      expect(reply.body?.id).toBe(7);
      const error = reply.body?.error as { code: number; message: string; data: { requiredCapabilities: Record<string, unknown> } };
      expect(error.code).toBe(-32021);
      expect(error.data.requiredCapabilities).toEqual({ sampling: {} });
      expect(error.message).toContain('sampling');
    });
  }

  it('a 2026-07-28 request that declares sampling is asked for it instead', { timeout: 60_000 }, async () => {
    const reply = await postModern(`${gateway.url}/servers/fixture/mcp`, {
      id: 8,
      method: 'tools/call',
      params: { name: 'test_missing_capability', arguments: {}, _meta: { ...MODERN_META, 'io.modelcontextprotocol/clientCapabilities': { sampling: {} } } },
    });
    expect(reply.status).toBe(200);
    const result = reply.body?.result as { resultType: string; inputRequests: Record<string, { method: string }> };
    expect(result.resultType).toBe('input_required');
    expect(Object.values(result.inputRequests).map((r) => r.method)).toEqual(['sampling/createMessage']);
  });

  it('a 2025-era session gets the server\'s own answer (an isError result)', { timeout: 60_000 }, async () => {
    const connected = await connectHttp(gateway.url, undefined, '/servers/fixture/mcp');
    try {
      const result = await connected.client.callTool({ name: 'test_missing_capability', arguments: {} });
      expect(result.isError).toBe(true);
      expect(JSON.stringify(result.content)).toContain('did not declare the required capability');
    } finally {
      await connected.close();
    }
  });
});
