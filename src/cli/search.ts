// Owns `switchboard search <query>` (the tools of every configured server ranked by what they do,
// in the configured or requested mode, at three levels of detail) and `switchboard embed` (embed
// every tool now, with progress; only changed texts go to the provider unless --force).
import { CATEGORY_NAMES } from '../search/categories.js';
import { SEARCH_MODES, type SearchMode } from '../search/engine.js';
import { snapshotOf } from '../views/meta-index.js';
import { printJson, table } from './format.js';
import { UsageError, withInventory } from './inventory.js';
import type { CommonOptions } from './context.js';

const DETAILS = ['minimal', 'summary', 'full'] as const;
type Detail = (typeof DETAILS)[number];

export interface SearchCommandOptions extends CommonOptions {
  json?: boolean;
  server?: string;
  limit?: string;
  mode?: string;
  detail?: string;
  category?: string;
}

function oneOf<T extends string>(value: string | undefined, allowed: readonly T[], flag: string): T | undefined {
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value)) throw new UsageError(`${flag} must be one of ${allowed.join(', ')} (got "${value}").`);
  return value as T;
}

export async function searchCommand(query: string, options: SearchCommandOptions): Promise<void> {
  const limit = options.limit === undefined ? 10 : Number(options.limit);
  if (!(Number.isInteger(limit) && limit > 0)) throw new UsageError('--limit must be a positive integer.');
  const mode: SearchMode | undefined = oneOf(options.mode, SEARCH_MODES, '--mode');
  const detail: Detail = oneOf(options.detail, DETAILS, '--detail') ?? 'summary';
  const category = oneOf(options.category, CATEGORY_NAMES, '--category');
  await withInventory(options, async ({ gateway, catalog }) => {
    const answer = await gateway.ranking.searchTools(catalog, query, { topK: limit, server: options.server, category, mode });
    const snapshot = snapshotOf(catalog, gateway.search.context);
    const shaped = answer.tools.map((t) => {
      if (detail === 'minimal') return { name: t.name, server: t.server };
      if (detail === 'summary') return t;
      const def = snapshot.byKey.get(t.name)?.definition;
      return { ...t, description: snapshot.byKey.get(t.name)?.description ?? t.description, inputSchema: def?.inputSchema ?? { type: 'object' }, ...(def?.outputSchema !== undefined && { outputSchema: def.outputSchema }), ...(def?.annotations !== undefined && { annotations: def.annotations }) };
    });
    if (options.json) return printJson({ query, mode: answer.mode, ...(answer.note && { note: answer.note }), tools: shaped });
    if (answer.note) process.stderr.write(`note: ${answer.note}\n`);
    if (detail === 'minimal') {
      process.stdout.write(`${table(['NAME', 'SERVER'], answer.tools.map((t) => [t.name, t.server]))}\n`);
    } else if (detail === 'summary') {
      process.stdout.write(`${table(['NAME', 'SERVER', 'SCORE', 'DESCRIPTION'], answer.tools.map((t) => [t.name, t.server, String(t.relevance), t.description.split('\n')[0] ?? '']))}\n`);
    } else {
      for (const t of shaped as Array<Record<string, unknown>>) {
        process.stdout.write(`${t.name}  (server ${t.server}, ${t.category}, relevance ${t.relevance})\n${t.description}\n${JSON.stringify(t.inputSchema, null, 2)}\n\n`);
      }
    }
    process.stdout.write(`${answer.tools.length} match(es) among ${snapshot.size} tool(s), ${answer.mode} search\n`);
  });
}

export async function embedCommand(options: CommonOptions & { force?: boolean; json?: boolean }): Promise<void> {
  await withInventory(options, async ({ gateway, catalog }) => {
    const tty = process.stderr.isTTY;
    const report = await gateway.search.embed(catalog, {
      force: options.force ?? false,
      onProgress: (done, total) => process.stderr.write(tty ? `\rembedding ${done}/${total}` : `embedded ${done}/${total}\n`),
    });
    if (tty) process.stderr.write('\n');
    if (options.json) return printJson(report);
    process.stdout.write(
      `${report.tools} tool(s): ${report.requested} text(s) sent to ${report.endpoint} (model ${report.model}), ${report.fromCache} reused from the store\n`,
    );
  });
}
