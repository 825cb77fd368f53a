// The management endpoint (/gateway/mcp, /g/mcp): tools about the gateway itself, answered locally
// from the store: call metrics per tool, and resetting them.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ProtocolError } from '@modelcontextprotocol/client';
import { connectHttp, fixtureServer, newClient, startHttpGateway, writeConfig } from '../helpers/gateway.js';

const ANY = z.any();

describe('management endpoint', () => {
  it('reports and resets tool call metrics', async () => {
    const config = await writeConfig({ f: fixtureServer('fault-server.ts') });
    const gateway = await startHttpGateway(config);
    try {
      const user = await connectHttp(gateway.url, newClient());
      for (let i = 0; i < 3; i++) await user.client.request({ method: 'tools/call', params: { name: 'f_ok', arguments: { text: String(i) } } }, ANY);
      await user.client.request({ method: 'tools/call', params: { name: 'f_tool_error', arguments: {} } }, ANY);
      await user.client.request({ method: 'tools/call', params: { name: 'f_fail', arguments: {} } }, ANY).catch(() => undefined);

      for (const path of ['/gateway/mcp', '/g/mcp']) {
        const admin = await connectHttp(gateway.url, newClient(), path);
        const { tools } = await admin.client.request({ method: 'tools/list', params: {} }, ANY);
        expect(tools.map((t: { name: string }) => t.name)).toEqual([
          'get_tool_metrics',
          'reset_tool_metrics',
          'get_tool_alternatives',
          'recommend_tools',
          'search_tools',
          'get_tool_schema',
          'discover-all-tools',
          'build-toolset',
          'equip-toolset',
          'unequip-toolset',
          'get-active-toolset',
          'list-toolsets',
          'delete-toolset',
        ]);
        await admin.close();
      }

      const admin = await connectHttp(gateway.url, newClient(), '/gateway/mcp');
      const stats = await admin.client.request({ method: 'tools/call', params: { name: 'get_tool_metrics', arguments: { server: 'f' } } }, ANY);
      const byTool = Object.fromEntries((stats.structuredContent.tools as Array<{ tool: string; lastError?: { message: string } }>).map((t) => [t.tool, t]));
      expect(byTool.ok).toMatchObject({ server: 'f', calls: 3, successes: 3, failures: 0, successRate: 1 });
      expect(byTool.tool_error).toMatchObject({ calls: 1, failures: 1 });
      expect(byTool.fail).toMatchObject({ calls: 1, failures: 1 });
      expect(byTool.fail!.lastError?.message).toContain('deliberate failure');

      const reset = await admin.client.request({ method: 'tools/call', params: { name: 'reset_tool_metrics', arguments: { server: 'f', tool: 'ok' } } }, ANY);
      expect(reset.structuredContent.rawDeleted).toBe(3);
      const after = await admin.client.request({ method: 'tools/call', params: { name: 'get_tool_metrics', arguments: {} } }, ANY);
      expect((after.structuredContent.tools as Array<{ tool: string }>).map((t) => t.tool).sort()).toEqual(['fail', 'tool_error']);

      const bad = (await admin.client.request({ method: 'tools/call', params: { name: 'get_tool_metrics', arguments: { server: 5 } } }, ANY).catch((e: unknown) => e)) as ProtocolError;
      expect(bad.code).toBe(-32602);
      expect(bad.message).toContain('server');
      const unknown = (await admin.client.request({ method: 'tools/call', params: { name: 'nope', arguments: {} } }, ANY).catch((e: unknown) => e)) as ProtocolError;
      expect(unknown.message).toContain('get_tool_metrics');
      await admin.close();
      await user.close();
    } finally {
      await gateway.close();
    }
  });
});
