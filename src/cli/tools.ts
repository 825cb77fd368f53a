// Owns `switchboard tools`: every exposed tool name with its server and description, or with
// --tokens the tokens of the tools/list result per mode (passthrough, meta).
import { printJson, table } from './format.js';
import { withInventory } from './inventory.js';
import type { CommonOptions } from './context.js';
import { summaryOf, tokenReport } from '../views/budget.js';

export async function toolsCommand(options: CommonOptions & { json?: boolean; server?: string; tokens?: boolean }): Promise<void> {
  await withInventory(options, async ({ catalog, gateway, context }) => {
    if (options.tokens) {
      const entries = catalog.toolTable.entries().filter((e) => !options.server || e.serverKey === options.server);
      const names = new Set(entries.map((e) => e.exposed));
      const tools = catalog.tools().filter((t) => names.has(t.name as string));
      const keys = options.server ? [options.server] : gateway.pool.keys();
      const { servers } = summaryOf(entries.map((e) => ({ server: e.serverKey })), keys);
      const report = tokenReport(tools, servers, context.config.settings.keepTools);
      const { tokenBudget, maxTools } = context.config.settings;
      if (options.json) return printJson({ ...report, tokenBudget, maxTools });
      const rows = (['passthrough', 'meta'] as const).map((mode) => [mode, String(report[mode].tools), String(report[mode].tokens)]);
      process.stdout.write(`${table(['MODE', 'TOOLS', 'TOKENS'], rows)}\n`);
      const over = report.passthrough.tokens > tokenBudget || report.passthrough.tools > maxTools;
      process.stdout.write(`tokens of the tools/list JSON, ${report.encoding} (gpt-tokenizer); budget ${tokenBudget} tokens, ${maxTools} tools${over ? ': passthrough is over it, consider --mode meta or a toolset' : ''}\n`);
      return;
    }
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
