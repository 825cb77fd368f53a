// Owns `switchboard optimize ...`: run an optimization of a server's tools (generate, lint, evaluate, decide, with a
// progress line per phase and an ETA on stderr), promote, revert, status, report, golden prompts, and the measured
// run on a public retrieval set. Thin: parses, calls src/optimize, prints.
import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { z } from 'zod';
import { BARE_PROFILE } from '../servers/profile.js';
import { loadBench } from '../search/bench.js';
import { createBackend } from '../optimize/backends/index.js';
import { offlineCandidates } from '../optimize/generate.js';
import { generateCandidateTexts } from '../optimize/model-generate.js';
import { optimizeTool } from '../optimize/pipeline.js';
import { ruleWith } from '../optimize/rule.js';
import { Optimizer } from '../optimize/service.js';
import { buildReport, reportMarkdown } from '../optimize/report.js';
import { runRetrievalOptimization } from '../optimize/retrieval-run.js';
import { nearestSiblings } from '../optimize/prompts.js';
import type { Store } from '../store/index.js';
import { gatewayFor, loadContext, openStore, type CommonOptions } from './context.js';
import { UsageError } from './inventory.js';
import type { LoadedConfig } from '../config/index.js';

export interface OptimizeOptions extends CommonOptions {
  enableOptimization?: boolean;
  json?: boolean;
}

async function open(options: OptimizeOptions, gated = true): Promise<{ config: LoadedConfig; store: Store; optimizer: Optimizer }> {
  const { config, dataDir } = await loadContext(options, 'warn');
  if (gated && !options.enableOptimization && !config.settings.optimization.enabled) {
    throw new UsageError('description optimization is off: pass --enable-optimization or set "optimization": {"enabled": true} in the settings (promotions and overrides apply either way)');
  }
  const store = openStore(dataDir, config.settings);
  return { config, store, optimizer: new Optimizer({ repository: store.optimize, rule: ruleWith(config.settings.optimization.rule) }) };
}

/** A progress line on stderr: phase, tool, done/total, percentage and ETA. */
function progress(phase: string, tool: string): (done: number, total: number) => void {
  const started = Date.now();
  let last = 0;
  return (done, total) => {
    const now = Date.now();
    if (done < total && now - last < 200) return;
    last = now;
    const eta = done > 0 ? ((now - started) / done) * (total - done) : 0;
    process.stderr.write(`\r${phase} ${tool}: ${done}/${total} (${Math.round((done / total) * 100)}%) ETA ${(eta / 1000).toFixed(0)}s   ${done === total ? '\n' : ''}`);
  };
}

export interface RunOptions extends OptimizeOptions {
  tools?: string;
  backend?: string;
  model?: string;
  candidates?: string;
  repeats?: string;
  autoPromote?: boolean;
  /** Candidates from the offline generator even when the backend is a model. */
  offlineCandidates?: boolean;
}

export async function optimizeRun(server: string, options: RunOptions): Promise<void> {
  const { config, store, optimizer } = await open(options);
  try {
    if (!config.servers.some((s) => s.key === server)) throw new UsageError(`no server "${server}" in ${config.file}; configured: ${config.servers.map((s) => s.key).join(', ')}`);
    const settings = config.settings.optimization;
    const candidatesPerTool = intOption('--candidates', options.candidates, settings.candidates);
    const repeats = intOption('--repeats', options.repeats, settings.repeats);
    const backend = createBackend(settings.backends, options.backend ?? 'retrieval', options.model);
    // List the server live (this also captures each tool's canonical definition); no tool is ever called.
    const gateway = gatewayFor(config, { lazy: false }, { store });
    let tools: Array<Record<string, unknown>>;
    try {
      await gateway.applyServers(config.servers);
      const catalog = gateway.catalogFor(BARE_PROFILE);
      await catalog.refresh(server);
      const listing = catalog.listing(server);
      if (listing.error) throw new Error(`${server}: cannot list its tools: ${listing.error}`);
      tools = catalog.canonical(server) ?? [];
    } finally {
      await gateway.close();
    }
    const evalTools = tools.map((t) => ({ name: t.name as string, description: t.description as string | undefined, inputSchema: t.inputSchema }));
    const wanted = options.tools ? options.tools.split(',').map((t) => t.trim()).filter(Boolean) : evalTools.map((t) => t.name);
    const unknown = wanted.filter((t) => !evalTools.some((e) => e.name === t));
    if (unknown.length) throw new UsageError(`--tools: ${server} has no tool ${unknown.join(', ')}`);
    const prompts = store.optimize.prompts(server);
    const siblings = nearestSiblings(evalTools, 3);
    const summary: Array<Record<string, unknown>> = [];
    for (const name of wanted) {
      const own = prompts.filter((p) => p.tool === name);
      if (own.length === 0) {
        process.stderr.write(`${server}.${name}: no golden prompts; add some with "switchboard optimize prompts import <file>" (skipped)\n`);
        summary.push({ tool: name, skipped: 'no golden prompts' });
        continue;
      }
      optimizer.events.emit('phase', { server, tool: name, phase: 'generating', done: 0, total: 1 });
      const texts = own.filter((p) => p.split === 'optimize' && p.expectedBehavior.shouldCallTool).map((p) => p.prompt);
      const tool = evalTools.find((t) => t.name === name)!;
      // A model backend writes the candidates (shown the tool, its nearest siblings and prompts); else offline.
      const near = (siblings.get(name) ?? []).map((sibling) => evalTools.find((t) => t.name === sibling)!).filter(Boolean);
      const generated = backend.complete && !options.offlineCandidates
        ? (await generateCandidateTexts(backend, tool, near, texts, candidatesPerTool)).map((description) => ({ description, source: `model:${backend.name}/${backend.model}` }))
        : offlineCandidates(tool, texts, candidatesPerTool);
      const candidates = generated.map((c) => ({ id: `${server}.${name}.${randomUUID().slice(0, 8)}`, ...c }));
      progress('generating', name)(1, 1);
      const batch = randomUUID();
      const onProgress = progress('evaluating', name);
      const result = await optimizeTool({
        batch,
        server,
        tool: name,
        tools: evalTools,
        prompts,
        siblings: siblings.get(name) ?? [],
        candidates,
        backend,
        repeats,
        rule: ruleWith(settings.rule),
        onProgress: (done, total) => {
          onProgress(done, total);
          optimizer.events.emit('phase', { server, tool: name, phase: 'evaluating', done, total });
        },
      });
      for (const c of result.linted) store.optimize.saveCandidate({ id: c.id, server, tool: name, description: c.description, source: c.source, lint: c.findings.map((f) => ({ rule: f.rule, message: f.message })) });
      store.optimize.recordRuns(result.rows);
      progress('deciding', name)(1, 1);
      const decision = result.decision;
      const rejected = result.linted.filter((c) => c.findings.length).map((c) => ({ candidate: c.id, lint: c.findings.map((f) => `${f.rule}: ${f.message}`) }));
      let promoted: string | undefined;
      if (decision?.best && options.autoPromote) {
        optimizer.promote(server, name, { candidateId: decision.best });
        promoted = decision.best;
      }
      summary.push({
        tool: name,
        candidates: result.linted.length,
        rejected,
        decision: decision?.candidates.map((c) => ({ candidate: c.candidateId, promote: c.promote, gain: c.gain, p: c.adjustedP, ...(c.failing && { failing: `${c.failing.name}: ${c.failing.detail}` }) })) ?? [],
        ...(decision?.best && { passing: decision.best }),
        ...(promoted && { promoted }),
      });
    }
    await backend.close?.();
    if (options.json) process.stdout.write(`${JSON.stringify({ server, backend: backend.name, model: backend.model, tools: summary }, null, 2)}\n`);
    else for (const s of summary) process.stdout.write(`${formatSummary(s)}\n`);
  } finally {
    store.close();
  }
}

function formatSummary(s: Record<string, unknown>): string {
  if (s.skipped) return `${s.tool}: skipped (${s.skipped})`;
  const lines = [`${s.tool}: ${s.promoted ? `promoted ${s.promoted}` : s.passing ? `${s.passing} passes the rule (promote it, or use --auto-promote)` : 'nothing promoted'}`];
  for (const r of s.rejected as Array<{ candidate: string; lint: string[] }>) lines.push(`  lint rejected ${r.candidate}: ${r.lint.join('; ')}`);
  for (const d of s.decision as Array<{ candidate: string; promote: boolean; gain: number; p: number; failing?: string }>) {
    lines.push(`  ${d.candidate}: gain ${(d.gain * 100).toFixed(1)} points, Holm p ${d.p.toPrecision(3)}${d.failing ? `, refused: ${d.failing}` : ', passes'}`);
  }
  return lines.join('\n');
}

function intOption(flag: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 20) throw new UsageError(`${flag} must be a whole number from 1 to 20 (got "${value}")`);
  return n;
}

export async function optimizePromote(server: string, tool: string, options: OptimizeOptions & { candidate?: string; description?: string; force?: boolean }): Promise<void> {
  const { store, optimizer } = await open(options);
  try {
    const p = optimizer.promote(server, tool, { ...(options.candidate && { candidateId: options.candidate }), ...(options.description && { description: options.description }), force: options.force === true });
    process.stdout.write(options.json ? `${JSON.stringify(p, null, 2)}\n` : `${server}.${tool}: promoted${p.forced ? ' (FORCED)' : ''}: ${p.description}\nA running gateway applies it at its next start (promote_candidate on /gateway/mcp applies it live).\n`);
  } finally {
    store.close();
  }
}

export async function optimizeRevert(server: string, options: OptimizeOptions & { tools?: string }): Promise<void> {
  const { store, optimizer } = await open(options, false);
  try {
    const reverted = optimizer.revert(server, options.tools?.split(',').map((t) => t.trim()).filter(Boolean));
    process.stdout.write(options.json ? `${JSON.stringify({ server, reverted })}\n` : reverted.length ? `${server}: canonical description restored for ${reverted.join(', ')}\n` : `${server}: nothing was promoted\n`);
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
  const onProgress = progress('optimizing', 'tools');
  const result = await runRetrievalOptimization(input, { optimizeShare: share, onProgress: (done, total) => onProgress(done, total) });
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
