// Owns `switchboard optimize ...` other than the run itself (optimize-run.ts): promote, revert, status, report,
// golden prompts, and the measured run on a public retrieval set. Thin: parses, calls src/optimize, prints.
import { readFileSync, writeFileSync } from 'node:fs';
import { z } from 'zod';
import { loadBench } from '../search/bench.js';
import { ruleWith } from '../optimize/rule.js';
import { Optimizer } from '../optimize/service.js';
import { buildReport, reportMarkdown } from '../optimize/report.js';
import { runRetrievalOptimization } from '../optimize/retrieval-run.js';
import type { Store } from '../store/index.js';
import { loadContext, openStore, type CommonOptions } from './context.js';
import { phaseBar, type PhaseBar } from './optimize-progress.js';
import { UsageError } from './inventory.js';
import type { LoadedConfig } from '../config/index.js';

export interface OptimizeOptions extends CommonOptions {
  enableOptimization?: boolean;
  json?: boolean;
}

/** The config, the store and an optimizer over it; refused unless optimization is enabled (`gated`). */
export async function open(options: OptimizeOptions, gated = true): Promise<{ config: LoadedConfig; store: Store; optimizer: Optimizer }> {
  const { config, dataDir } = await loadContext(options, 'warn');
  if (gated && !options.enableOptimization && !config.settings.optimization.enabled) {
    throw new UsageError('description optimization is off: pass --enable-optimization or set "optimization": {"enabled": true} in the settings (promotions and overrides apply either way)');
  }
  const store = openStore(dataDir, config.settings);
  return { config, store, optimizer: new Optimizer({ repository: store.optimize, rule: ruleWith(config.settings.optimization.rule) }) };
}

export async function optimizePromote(server: string, tool: string, options: OptimizeOptions & { candidate?: string; description?: string; force?: boolean }): Promise<void> {
  const { store, optimizer } = await open(options);
  try {
    const p = optimizer.promote(server, tool, { ...(options.candidate && { candidateId: options.candidate }), ...(options.description && { description: options.description }), force: options.force === true });
    process.stdout.write(options.json ? `${JSON.stringify(p, null, 2)}\n` : `${server}.${tool}: promoted${p.forced ? ' (FORCED)' : ''}: ${p.description}\nA running gateway using this data dir shows it to its clients within about 2 s, with list_changed.\n`);
  } finally {
    store.close();
  }
}

export async function optimizeRevert(server: string, options: OptimizeOptions & { tools?: string }): Promise<void> {
  const { store, optimizer } = await open(options, false);
  try {
    const reverted = optimizer.revert(server, options.tools?.split(',').map((t) => t.trim()).filter(Boolean));
    process.stdout.write(options.json ? `${JSON.stringify({ server, reverted })}\n` : reverted.length ? `${server}: canonical description restored for ${reverted.join(', ')} (a running gateway shows it within about 2 s)\n` : `${server}: nothing was promoted\n`);
  } finally {
    store.close();
  }
}

export async function optimizeStatus(options: OptimizeOptions & { server?: string }): Promise<void> {
  const { store, optimizer } = await open(options, false);
  try {
    const rows = optimizer.status(options.server);
    if (options.json) {
      process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
      return;
    }
    for (const r of rows) {
      const p = r.promotion;
      const state = p ? `promoted${p.forced ? ' FORCED' : ''}${p.stale ? ' STALE' : ''}` : 'canonical';
      process.stdout.write(`${r.server}.${r.tool}: ${state}; ${r.prompts} golden prompt(s), ${r.candidates} candidate(s)${p?.stale ? `\n  ${p.staleReason}` : ''}\n`);
    }
  } finally {
    store.close();
  }
}

export async function optimizeReport(options: OptimizeOptions & { server?: string; format?: string; out?: string }): Promise<void> {
  const format = options.format ?? 'md';
  if (format !== 'md' && format !== 'json') throw new UsageError(`--format must be md or json (got "${format}")`);
  const { store, optimizer } = await open(options, false);
  try {
    const reports = buildReport(optimizer, options.server);
    const text = format === 'json' ? `${JSON.stringify(reports, null, 2)}\n` : `${reportMarkdown(reports)}\n`;
    if (options.out) writeFileSync(options.out, text);
    else process.stdout.write(text);
  } finally {
    store.close();
  }
}

const promptFileSchema = z.array(
  z.strictObject({
    id: z.string().min(1).max(200).optional(),
    server: z.string().min(1).optional(),
    tool: z.string().min(1).max(200),
    category: z.enum(['direct', 'indirect', 'negative']),
    prompt: z.string().min(10).max(4000),
    expectedBehavior: z.strictObject({ shouldCallTool: z.boolean(), notes: z.string().max(1000).optional() }).optional(),
    split: z.enum(['optimize', 'holdout']).optional(),
    source: z.string().max(200).optional(),
  }),
).max(10_000);

/** Lists golden prompts, or imports them from a JSON array or JSONL file (validated; a third held out by default). */
export async function optimizePrompts(options: OptimizeOptions & { server: string; tool?: string; import?: string }): Promise<void> {
  const { store } = await open(options);
  try {
    if (options.import) {
      const raw = readFileSync(options.import, 'utf8');
      const data = raw.trimStart().startsWith('[') ? JSON.parse(raw) : raw.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
      const parsed = promptFileSchema.safeParse(data);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new UsageError(`${options.import}: entry ${String(issue.path[0])}, field ${issue.path.slice(1).join('.') || '(entry)'}: ${issue.message}`);
      }
      const counters = new Map<string, number>();
      const saved = store.optimize.savePrompts(
        parsed.data.map((p) => {
          const key = `${p.tool}:${p.category}`;
          const n = (counters.get(key) ?? 0) + 1;
          counters.set(key, n);
          return {
            id: p.id ?? `${options.server}.${p.tool}.${p.category}.${n}`,
            server: options.server,
            tool: p.tool,
            category: p.category,
            prompt: p.prompt,
            expectedBehavior: p.expectedBehavior ?? { shouldCallTool: p.category !== 'negative' },
            split: p.split ?? (n % 3 === 0 ? 'holdout' : 'optimize'),
            source: p.source ?? `import:${options.import}`,
          };
        }),
      );
      process.stdout.write(`${options.server}: saved ${saved.length} golden prompt(s)\n`);
      return;
    }
    const prompts = store.optimize.prompts(options.server, options.tool);
    if (options.json) process.stdout.write(`${JSON.stringify(prompts, null, 2)}\n`);
    else for (const p of prompts) process.stdout.write(`${p.tool}\t${p.category}\t${p.split}\t${p.prompt}\n`);
  } finally {
    store.close();
  }
}

/** The measured run of docs/optimization.md on a public retrieval set (offline, deterministic). */
export async function optimizeRetrievalRun(options: { tools: string; queries: string; share?: string; json?: string }): Promise<void> {
  const input = loadBench(options.tools, options.queries);
  const share = options.share === undefined ? 0.5 : Number(options.share);
  if (!(share > 0 && share < 1)) throw new UsageError(`--optimize-share must be between 0 and 1 (got "${options.share}")`);
  let bar: PhaseBar | undefined;
  const result = await runRetrievalOptimization(input, {
    optimizeShare: share,
    onProgress: (done, total) => {
      bar ??= phaseBar('optimizing', total, { label: 'tools' });
      bar.update(done);
    },
  });
  bar?.stop();
  if (options.json) writeFileSync(options.json, `${JSON.stringify(result, null, 2)}\n`);
  const f = (x: number) => (x * 100).toFixed(1);
  const pair = (name: string, p: { before: { r1: number; r5: number }; after: { r1: number; r5: number } }) =>
    `${name}: Recall@1 ${f(p.before.r1)} -> ${f(p.after.r1)}, Recall@5 ${f(p.before.r5)} -> ${f(p.after.r5)}`;
  const lines = [
    `tools ${result.tools}, queries: optimize ${result.queries.optimize}, held-out ${result.queries.heldOut}; tools optimized ${result.toolsOptimized}`,
    `candidates generated ${result.candidates.generated}, lint findings ${JSON.stringify(result.candidates.lintRejected)}, evaluated ${result.candidates.evaluated}`,
    `promoted by the gate: ${result.promoted.length}; refused (first failing condition of the best candidate): ${JSON.stringify(result.refused)}; refused despite a positive optimize-split gain: ${result.refusedWithGain}`,
    pair('gated, held-out', result.gated.heldOut),
    pair('gated, optimize split', result.gated.optimize),
    `ungated (best candidate of ${result.ungated.promoted} tools promoted without the rule):`,
    pair('  held-out', result.ungated.heldOut),
    pair('  optimize split', result.ungated.optimize),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}
