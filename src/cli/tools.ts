// Owns `switchboard tools`: every exposed tool name with its server and description, or with
// --tokens the tokens of the tools/list result per mode (passthrough, meta).
import { printJson, table } from './format.js';
import { withInventory } from './inventory.js';
import type { CommonOptions } from './context.js';
import { summaryOf, tokenReport } from '../views/budget.js';
import { PINNING_META_KEY } from '../catalog/pinning.js';

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
        const pinning = (tool._meta as Record<string, unknown> | undefined)?.[PINNING_META_KEY] as { changed: string[]; approve: string } | undefined;
        return { name: e.exposed, server: e.serverKey, originalName: e.originalName, description: (tool.description as string | undefined) ?? '', tool, pinning };
      });
    // Definition pinning: changed tools (warn: listed, flagged) and withheld ones (strict: not listed).
    const withheld = catalog.withheldList().filter((f) => !options.server || f.server === options.server);
    if (options.json) {
      const listed: Array<Record<string, unknown>> = rows.map(({ tool, pinning, ...rest }) => ({ ...rest, inputSchema: tool.inputSchema, ...(tool.annotations ? { annotations: tool.annotations } : {}), ...(pinning && { pinning: { state: 'changed', ...pinning } }) }));
      // Withheld tools have no exposed name (no client can see or call them); they are listed so that nothing changes unseen.
      const held = withheld.map((f) => ({ name: null, server: f.server, originalName: f.tool, withheld: true, pinning: { state: 'changed', changed: f.changed, approve: f.approve } }));
      return printJson([...listed, ...held]);
    }
    process.stdout.write(`${table(['NAME', 'SERVER', 'DESCRIPTION'], rows.map((r) => [r.pinning ? `${r.name} [changed]` : r.name, r.server, r.description.split('\n')[0] ?? '']))}\n`);
    process.stdout.write(`${rows.length} tool(s)\n`);
    const changed = rows.filter((r) => r.pinning);
    for (const r of changed) process.stdout.write(`[changed] ${r.name}: definition changed since it was pinned (${r.pinning!.changed.join(', ')}); review and approve: ${r.pinning!.approve}\n`);
    for (const f of withheld) process.stdout.write(`[withheld] ${f.server}.${f.tool}: definition changed since it was pinned (${f.changed.join(', ')}); hidden until approved (pinning: strict): ${f.approve}\n`);
  });
}
