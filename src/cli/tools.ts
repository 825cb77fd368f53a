// Owns `switchboard tools`: every exposed tool name with its server and description.
import { printJson, table } from './format.js';
import { withInventory } from './inventory.js';
import type { CommonOptions } from './context.js';

export async function toolsCommand(options: CommonOptions & { json?: boolean; server?: string }): Promise<void> {
  await withInventory(options, async ({ catalog }) => {
    const rows = catalog.toolTable
      .entries()
      .filter((e) => !options.server || e.serverKey === options.server)
      .map((e) => {
        const tool = catalog.listing(e.serverKey).tools.find((t) => t.name === e.originalName)!;
        return { name: e.exposed, server: e.serverKey, originalName: e.originalName, description: (tool.description as string | undefined) ?? '', tool };
      });
    if (options.json) {
      return printJson(rows.map(({ tool, ...rest }) => ({ ...rest, inputSchema: tool.inputSchema, ...(tool.annotations ? { annotations: tool.annotations } : {}) })));
    }
    process.stdout.write(`${table(['NAME', 'SERVER', 'DESCRIPTION'], rows.map((r) => [r.name, r.server, r.description.split('\n')[0] ?? '']))}\n`);
    process.stdout.write(`${rows.length} tool(s)\n`);
  });
}
