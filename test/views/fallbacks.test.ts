// Fallback suggestions through a real client over HTTP: a fixture server killed mid-call yields
// similar tools (never the failing one), and the management tool get_tool_alternatives ranks the
// same tool of a twin server first.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { connectHttp, fixtureServer, newClient, startHttpGateway, writeConfig, type RunningGateway } from '../helpers/gateway.js';

const ANY = z.any();
type Json = Record<string, any>;

describe('fallback suggestions over HTTP', () => {
  let gateway: RunningGateway;
  beforeAll(async () => {
    const config = await writeConfig({ fault: fixtureServer('fault-server.ts'), spare: fixtureServer('fault-server.ts') });
    gateway = await startHttpGateway(config);
  });
  afterAll(async () => gateway?.close());

  it('suggests similar tools when a server is killed mid-call, never the failing tool', async () => {
    const user = await connectHttp(gateway.url, newClient());
    try {
      const error = (await user.client.request({ method: 'tools/call', params: { name: 'fault_crash', arguments: {} } }, ANY).then(
        () => {
          throw new Error('expected an error');
        },
        (e: unknown) => e,
      )) as { data: Json };
      const suggestions = error.data.fallback_suggestions as Json[];
      expect(suggestions.length).toBeGreaterThan(0);
      expect(suggestions.length).toBeLessThanOrEqual(3);
      expect(suggestions.map((s) => s.toolKey)).not.toContain('fault_crash');
      expect(suggestions[0].toolKey).toBe('spare_crash');
      expect(suggestions[0].similarity).toBe(1);
    } finally {
      await user.close();
    }
  });

  it('get_tool_alternatives ranks the twin server first and excludes the tool itself', async () => {
    const admin = await connectHttp(gateway.url, newClient(), '/gateway/mcp');
    try {
      const result = await admin.client.request({ method: 'tools/call', params: { name: 'get_tool_alternatives', arguments: { server: 'spare', tool: 'slow' } } }, ANY);
      const { tool, alternatives } = result.structuredContent as Json;
      expect(tool).toEqual({ server: 'spare', tool: 'slow', toolKey: 'spare_slow' });
      expect(alternatives[0].toolKey).toBe('fault_slow');
      expect(alternatives.map((a: Json) => a.toolKey)).not.toContain('spare_slow');
      for (const a of alternatives) expect(a.success_rate).toBeGreaterThanOrEqual(0);
      const bad = await admin.client.request({ method: 'tools/call', params: { name: 'get_tool_alternatives', arguments: { server: 'spare', tool: 'nope' } } }, ANY).catch((e: unknown) => e);
      expect((bad as Error).message).toContain('no tool "nope"');
    } finally {
      await admin.close();
    }
  });
});

describe('recommendations, token report and automatic fallback retry', () => {
  it('recommend_tools ranks by relevance and recorded success; /api/tokens reports both modes', async () => {
    const config = await writeConfig({ fault: fixtureServer('fault-server.ts'), spare: fixtureServer('fault-server.ts') });
    const gateway = await startHttpGateway(config);
    try {
      const user = await connectHttp(gateway.url, newClient());
      // Give one twin a failure record: its success rate drops below the other's.
      await user.client.request({ method: 'tools/call', params: { name: 'fault_tool_error', arguments: {} } }, ANY);
      await user.client.request({ method: 'tools/call', params: { name: 'spare_tool_error', arguments: {} } }, ANY);
      await user.client.request({ method: 'tools/call', params: { name: 'spare_ok', arguments: {} } }, ANY);
      const admin = await connectHttp(gateway.url, newClient(), '/gateway/mcp');
      const result = await admin.client.request({ method: 'tools/call', params: { name: 'recommend_tools', arguments: { task_description: 'return a deliberate tool error', top_k: 2 } } }, ANY);
      const tools = result.structuredContent.tools as Json[];
      expect(tools).toHaveLength(2);
      expect(tools.map((t) => t.tool)).toEqual(['tool_error', 'tool_error']);
      for (const t of tools) expect(t.relevance).toBeGreaterThan(0);
      const bad = await admin.client.request({ method: 'tools/call', params: { name: 'recommend_tools', arguments: {} } }, ANY).catch((e: unknown) => e);
      expect((bad as Error).message).toContain('task_description');

      const tokens = (await (await fetch(`${gateway.url}/api/tokens`)).json()) as Json;
      expect(tokens.passthrough.tools).toBe(20);
      expect(tokens.meta.tools).toBe(3);
      expect(tokens.meta.tokens).toBeLessThan(tokens.passthrough.tokens);
      expect(tokens.tokenBudget).toBe(20000);
      await admin.close();
      await user.close();
    } finally {
      await gateway.close();
    }
  });

  it('autoRetryFallback retries a failed call with the first suggestion and returns both outcomes', async () => {
    const config = await writeConfig({ fault: fixtureServer('fault-server.ts'), spare: fixtureServer('fault-server.ts') }, { autoRetryFallback: true });
    const gateway = await startHttpGateway(config);
    try {
      const user = await connectHttp(gateway.url, newClient());
      const result = await user.client.request({ method: 'tools/call', params: { name: 'fault_tool_error', arguments: {} } }, ANY);
      expect(result.structuredContent.auto_retry).toMatchObject({ failed: 'fault_tool_error', retried_with: 'spare_tool_error' });
      expect(result.content[0].text).toContain('retried with spare_tool_error');
      // A crashing server: the retry on the twin fails the same way, and the answer says so.
      const crashed = await user.client.request({ method: 'tools/call', params: { name: 'fault_crash', arguments: {} } }, ANY);
      expect(crashed.structuredContent.auto_retry.failed).toBe('fault_crash');
      await user.close();
    } finally {
      await gateway.close();
    }
  });
});

describe('search surfaces', () => {
  it('search_tools, get_tool_schema and POST /api/tools/search find tools by what they do', async () => {
    const config = await writeConfig({ fault: fixtureServer('fault-server.ts') });
    const gateway = await startHttpGateway(config);
    try {
      const admin = await connectHttp(gateway.url, newClient(), '/gateway/mcp');
      const found = await admin.client.request({ method: 'tools/call', params: { name: 'search_tools', arguments: { query: 'text of a given size in bytes', top_k: 3 } } }, ANY);
      const tools = found.structuredContent.tools as Json[];
      expect(tools[0]).toMatchObject({ name: 'fault_big', server: 'fault', tool: 'big', relevance: 1 });
      expect(tools.length).toBeLessThanOrEqual(3);

      const schema = await admin.client.request({ method: 'tools/call', params: { name: 'get_tool_schema', arguments: { name: 'fault_slow' } } }, ANY);
      expect(schema.structuredContent).toMatchObject({ server: 'fault', tool: 'slow' });
      expect(schema.structuredContent.definition.inputSchema.required).toEqual(['ms']);
      const typo = (await admin.client.request({ method: 'tools/call', params: { name: 'get_tool_schema', arguments: { name: 'fault_slwo' } } }, ANY).catch((e: unknown) => e)) as { data: Json };
      expect(typo.data.suggestions).toContain('fault_slow');

      const response = await fetch(`${gateway.url}/api/tools/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: 'crash the process', top_k: 1 }) });
      expect(response.status).toBe(200);
      expect(((await response.json()) as Json).tools[0].name).toBe('fault_crash');
      const bad = await fetch(`${gateway.url}/api/tools/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(bad.status).toBe(400);
      await admin.close();
    } finally {
      await gateway.close();
    }
  });
});
