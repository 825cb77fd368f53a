// A request id reused while its first request is in progress on the same HTTP session (which MCP
// forbids): the second is refused at once with -32600 and the first still gets its own answer. Before,
// the SDK's transport handed the first one's answer to the second POST and the first waited for ever
// (one request in 20,000 of the fuzz test, when a mutated frame repeated a neighbour's id).
// Real gateway, real server-everything, real HTTP on 127.0.0.1.
import { describe, expect, it } from 'vitest';
import { connectHttp, newClient, npmServer, startHttpGateway, writeConfig } from '../helpers/gateway.js';

describe('request ids on an HTTP session', () => {
  it('refuses an id already in use by a request in progress, answers the first, and frees the id when it is answered', async () => {
    const gateway = await startHttpGateway(await writeConfig({ everything: npmServer('everything') }));
    try {
      const user = await connectHttp(gateway.url, newClient());
      await user.client.callTool({ name: 'everything_echo', arguments: { message: 'warm' } });
      const sessionId = (user.client.transport as unknown as { sessionId: string }).sessionId;
      const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' };
      const post = (body: unknown) => fetch(`${gateway.url}/mcp`, { method: 'POST', headers, body: JSON.stringify(body) });
      const answer = async (response: Response) => {
        const text = await response.text();
        return JSON.parse(/^data: (.*)$/m.exec(text)?.[1] ?? text) as { id: unknown; result?: unknown; error?: { code: number; message: string } };
      };

      // The first request's response (an event stream) has begun: its id is in use until it ends.
      const first = await post({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'everything_trigger-long-running-operation', arguments: { duration: 2, steps: 2 } } });
      const second = await post({ jsonrpc: '2.0', id: 7, method: 'ping' });
      expect(second.status).toBe(400);
      expect(await answer(second)).toMatchObject({ id: 7, error: { code: -32600, message: expect.stringContaining('id 7 is already in use by a request in progress') } });
      const firstAnswer = await answer(first);
      expect(firstAnswer.id).toBe(7);
      expect(JSON.stringify(firstAnswer.result)).toContain('Long running operation completed');
      // The same id twice in one batch is refused too.
      const batch = await post([{ jsonrpc: '2.0', id: 'b', method: 'ping' }, { jsonrpc: '2.0', id: 'b', method: 'ping' }]);
      expect(((await answer(batch)) as { error?: { code: number } }).error?.code).toBe(-32600);
      // Answered, the id is free again.
      const again = await post({ jsonrpc: '2.0', id: 7, method: 'ping' });
      expect(again.status).toBe(200);
      expect(await answer(again)).toMatchObject({ id: 7, result: {} });
      await user.close();
    } finally {
      await gateway.close();
    }
  }, 60_000);

  it('frees the id of a request its client cancelled, and of one the transport refused before dispatching it', async () => {
    const gateway = await startHttpGateway(await writeConfig({ everything: npmServer('everything') }));
    try {
      const user = await connectHttp(gateway.url, newClient());
      await user.client.callTool({ name: 'everything_echo', arguments: { message: 'warm' } });
      const sessionId = (user.client.transport as unknown as { sessionId: string }).sessionId;
      const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' };
      const post = (body: unknown, extra: Record<string, string> = {}) => fetch(`${gateway.url}/mcp`, { method: 'POST', headers: { ...headers, ...extra }, body: JSON.stringify(body) });
      const answer = async (response: Response) => {
        const text = await response.text();
        return JSON.parse(/^data: (.*)$/m.exec(text)?.[1] ?? text) as { id: unknown; result?: unknown; error?: { code: number } };
      };

      // Cancelled: no answer will come for id 9, so the id is free once the cancel is in.
      const long = await post({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'everything_trigger-long-running-operation', arguments: { duration: 30, steps: 30 } } });
      expect(long.status).toBe(200);
      expect((await post({ jsonrpc: '2.0', id: 9, method: 'ping' })).status).toBe(400);
      expect((await post({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 9, reason: 'user' } })).status).toBe(202);
      const reused = await post({ jsonrpc: '2.0', id: 9, method: 'ping' });
      expect(reused.status).toBe(200);
      expect(await answer(reused)).toMatchObject({ id: 9, result: {} });
      await long.body?.cancel();

      // Refused by the transport (an unsupported protocol version header): never dispatched, id free at once.
      const refused = await post({ jsonrpc: '2.0', id: 10, method: 'ping' }, { 'mcp-protocol-version': '1999-01-01' });
      expect(refused.status).toBe(400);
      const after = await post({ jsonrpc: '2.0', id: 10, method: 'ping' });
      expect(after.status).toBe(200);
      expect(await answer(after)).toMatchObject({ id: 10, result: {} });
      await user.close();
    } finally {
      await gateway.close();
    }
  }, 60_000);
});
