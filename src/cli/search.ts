// Owns `switchboard search <query>`: index every catalog tool under its exposed name and print the
// best matches (lexical search; see docs/search.md).
import { ToolIndex } from '../search/index.js';
import { printJson, table } from './format.js';
import { UsageError, withInventory } from './inventory.js';
import type { CommonOptions } from './context.js';

export async function searchCommand(query: string, options: CommonOptions & { json?: boolean; server?: string; limit?: string }): Promise<void> {
  const limit = options.limit === undefined ? 10 : Number(options.limit);
  if (!(Number.isInteger(limit) && limit > 0)) throw new UsageError('--limit must be a positive integer.');
  await withInventory(options, async ({ catalog }) => {
    const index = new ToolIndex();
    const descriptions = new Map<string, string>();
    for (const e of catalog.toolTable.entries()) {
      const tool = catalog.listing(e.serverKey).tools.find((t) => t.name === e.originalName);
      if (!tool) continue;
      const description = (tool.description as string | undefined) ?? '';
      descriptions.set(e.exposed, description);
      index.add({
        key: e.exposed,
        server: e.serverKey,
        name: e.originalName,
        title: (tool.title as string | undefined) ?? undefined,
        description,
        inputSchema: tool.inputSchema,
      });
    }
    const hits = index.search(query, { limit, ...(options.server ? { server: options.server } : {}) });
    if (options.json) {
      return printJson(hits.map((h) => ({ name: h.key, server: h.server, originalName: h.name, score: Number(h.score.toFixed(4)), description: descriptions.get(h.key) ?? '' })));
    }
    const rows = hits.map((h) => [h.key, h.server, h.score.toFixed(2), (descriptions.get(h.key) ?? '').split('\n')[0] ?? '']);
    process.stdout.write(`${table(['NAME', 'SERVER', 'SCORE', 'DESCRIPTION'], rows)}\n`);
    process.stdout.write(`${hits.length} match(es) among ${index.size} tool(s)\n`);
  });
}
