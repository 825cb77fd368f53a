// The tools/list token benchmark of docs/meta-mode.md, computed from captured tool listings without
// running servers: the 15 fixture servers (104 tools) and the 527-tool LiveMCPBench catalog, named
// the way the gateway names them (<server>_<tool>, 48 characters), in passthrough and in meta mode.
// Meta mode must stay under 1,200 tokens whatever the catalog size. The data is vendored in the repo.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildNameTable } from '../../src/catalog/naming.js';
import { tokenReport, summaryOf } from '../../src/views/budget.js';
import { metaToolDefinitions } from '../../src/views/meta-tools.js';
import { listingTokens } from '../../src/views/tokens.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const FIXTURES = path.join(ROOT, 'test/fixtures/listings');
const LIVEMCPBENCH = path.join(ROOT, 'eval/retrieval/tools.jsonl');
type Tool = Record<string, unknown> & { name: string };

/** Tools as the gateway exposes them: namespaced names, the original name as title when there is none. */
function exposed(tools: Array<{ server: string; tool: Tool }>) {
  const table = buildNameTable(tools.map((t) => ({ serverKey: t.server, originalName: t.tool.name })), { separator: '_', budget: 48, prefix: true });
  const entries = tools.map(({ server, tool }) => {
    const name = table.exposedName(server, tool.name)!;
    return tool.title === undefined ? { ...tool, name, title: tool.name } : { ...tool, name };
  });
  const serverKeys = [...new Set(tools.map((t) => t.server))];
  return { entries, servers: summaryOf(tools, serverKeys).servers };
}

function report(label: string, tools: Array<{ server: string; tool: Tool }>) {
  const { entries, servers } = exposed(tools);
  const result = tokenReport(entries, servers);
  console.log(`${label}: ${servers.length} servers, ${entries.length} tools: passthrough ${result.passthrough.tokens} tokens, meta ${result.meta.tokens} tokens`);
  return result;
}

describe('tools/list token benchmark: fixture servers', () => {
  it('meta mode costs far less than passthrough on the 15 fixture servers', () => {
    const files = readdirSync(FIXTURES).filter((f) => f.endsWith('.tools.json')).sort();
    const tools = files.flatMap((file) => {
      const data = JSON.parse(readFileSync(path.join(FIXTURES, file), 'utf8')) as { tools: Tool[] };
      return data.tools.map((tool) => ({ server: file.replace(/\.tools\.json$/, ''), tool }));
    });
    expect(files).toHaveLength(15);
    expect(tools).toHaveLength(104);
    const result = report('fixture servers', tools);
    expect(result.meta.tokens).toBeLessThan(1200);
    expect(result.meta.tokens * 10).toBeLessThan(result.passthrough.tokens);
  });
});

describe('tools/list token benchmark: LiveMCPBench', () => {
  it('meta mode stays under 1,200 tokens on the 527-tool catalog', () => {
    const tools = readFileSync(LIVEMCPBENCH, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const { server, ...tool } = JSON.parse(line) as Tool & { server: string };
        return { server, tool: tool as Tool };
      });
    expect(tools).toHaveLength(527);
    const result = report('LiveMCPBench', tools);
    expect(result.meta.tokens).toBeLessThan(1200);
  });
});

describe('meta-tool listing size', () => {
  it('does not grow with the catalog: 1,000 servers cost the same order as 1', () => {
    const many = metaToolDefinitions({ total: 100_000, servers: Array.from({ length: 1000 }, (_, i) => ({ key: `server-with-a-long-name-${i}`, tools: 100 })) });
    expect(listingTokens(many)).toBeLessThan(1200);
  });
});
