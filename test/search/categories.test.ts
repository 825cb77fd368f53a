// Category inference on the captured tool lists of real MCP servers (test/fixtures/listings): each
// server's tools land in the category of what the server is for, including the cases that used to
// go wrong (memory's search_nodes was "web", GitHub's search_* tools were "web", its file tools "files").
// A server's tools are inferred together, so memory's search_nodes stays "knowledge" under any server
// key (through a real gateway too: the memory server from npm under the key "kg").
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { inferCategories, inferCategory } from '../../src/search/categories.js';
import { connectHttp, newClient, npmServer, startHttpGateway, waitFor, writeConfig } from '../helpers/gateway.js';

// The listings are vendored in the repository (test/fixtures/listings, see its README).
const DIR = path.resolve(import.meta.dirname, '../fixtures/listings');

function toolsOf(server: string): Array<{ name: string; description?: string }> {
  const data = JSON.parse(readFileSync(path.join(DIR, `${server}.tools.json`), 'utf8')) as { tools: Array<{ name: string; description?: string }> };
  return data.tools;
}

// Every tool of these servers belongs to one category.
const EXPECTED: Record<string, string> = {
  'aws-kb-retrieval': 'knowledge',
  'brave-search': 'web',
  everart: 'media',
  filesystem: 'files',
  gdrive: 'documents',
  github: 'code',
  gitlab: 'code',
  'google-maps': 'maps',
  memory: 'knowledge',
  postgres: 'database',
  puppeteer: 'browser',
  redis: 'database',
  'sequential-thinking': 'reasoning',
  slack: 'communication',
};

describe('category inference on the fixture servers', () => {
  for (const [server, category] of Object.entries(EXPECTED)) {
    it(`${server}: every tool is ${category}`, () => {
      const wrong = toolsOf(server)
        .map((t) => ({ tool: t.name, got: inferCategory(t.name, t.description ?? '', server) }))
        .filter((t) => t.got !== category);
      expect(wrong).toEqual([]);
    });
  }

  it('memory_search_nodes is knowledge, not web; without its server key the name alone still says web', () => {
    const tool = toolsOf('memory').find((t) => t.name === 'search_nodes')!;
    expect(inferCategory(tool.name, tool.description, 'memory')).toBe('knowledge');
    expect(inferCategory('search', 'Search the web for pages')).toBe('web');
  });

  it("the everything server's demo tools are utilities (or media, files for the image and gzip tools), never another domain", () => {
    const got = Object.fromEntries(toolsOf('everything').map((t) => [t.name, inferCategory(t.name, t.description ?? '', 'everything')]));
    expect(got['get-tiny-image']).toBe('media');
    expect(got['gzip-file-as-resource']).toBe('files');
    for (const name of ['echo', 'get-env', 'get-sum', 'get-annotated-message', 'toggle-simulated-logging', 'trigger-long-running-operation']) expect(got[name]).toBe('utilities');
    expect(Object.values(got).filter((c) => !['utilities', 'media', 'files', 'other'].includes(c))).toEqual([]);
  });
});

describe('a server\'s tools inferred together', () => {
  it('every fixture server keeps its category under its own key, and memory, filesystem and the others under opaque keys too', () => {
    for (const [server, category] of Object.entries(EXPECTED)) {
      const tools = toolsOf(server);
      expect(inferCategories(tools, server).filter((c) => c !== category)).toEqual([]);
    }
    // The key no longer decides for servers whose tools mostly say what they are.
    for (const key of ['kg', 'x', 'server-1']) {
      const memory = inferCategories(toolsOf('memory'), key);
      expect(memory[toolsOf('memory').findIndex((t) => t.name === 'search_nodes')]).toBe('knowledge');
      expect(new Set(memory)).toEqual(new Set(['knowledge']));
      for (const server of ['filesystem', 'google-maps', 'puppeteer', 'redis', 'slack', 'brave-search']) expect(new Set(inferCategories(toolsOf(server), key))).toEqual(new Set([EXPECTED[server]]));
      expect(inferCategories(toolsOf('github'), key).filter((c) => c === 'code').length).toBeGreaterThanOrEqual(25);
    }
    // Alone (no siblings), a tool keeps its own evidence.
    expect(inferCategories([{ name: 'search', description: 'Search the web for pages' }])).toEqual(['web']);
  });

  it('search_tools on a real gateway puts every tool of the memory server keyed "kg" in knowledge', async () => {
    const config = await writeConfig({ kg: npmServer('memory') });
    const gateway = await startHttpGateway(config);
    try {
      const admin = await connectHttp(gateway.url, newClient(), '/gateway/mcp');
      type Answer = { tools: Array<{ tool: string; category: string }> };
      const search = async () => (await admin.client.request({ method: 'tools/call', params: { name: 'search_tools', arguments: { query: 'search nodes entities relations graph', top_k: 20 } } }, z.any())).structuredContent as Answer;
      // The gateway may answer before the server has listed its tools: wait for them.
      const answer = await waitFor(async () => {
        const a = await search();
        return a.tools.some((t) => t.tool === 'search_nodes') && a;
      }, 'the memory server listed');
      expect(answer.tools.length).toBe(9);
      expect(answer.tools.filter((t) => t.category !== 'knowledge')).toEqual([]);
      await admin.close();
    } finally {
      await gateway.close();
    }
  });
});
