// Category inference on the captured tool lists of real MCP servers (test/fixtures/listings): each
// server's tools land in the category of what the server is for, including the cases that used to
// go wrong (memory's search_nodes was "web", GitHub's search_* tools were "web", its file tools "files").
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { inferCategory } from '../../src/search/categories.js';

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
