// Owns `switchboard optimize <server>`: lists the server live (capturing each tool's canonical definition), then
// three phases over the tools that have golden prompts, each with its own progress bar and ETA on stderr:
// generating (candidates written by the offline generator or a model backend, then linted), evaluating (canonical,
// the paraphrase control and every clean candidate through the backend) and deciding (the rule on the stored runs,
// and --auto-promote). Thin: parses, calls src/optimize, prints.
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { CredentialStore } from '../auth/credential-store.js';
import { BARE_PROFILE } from '../servers/profile.js';
import { createBackend } from '../optimize/backends/index.js';
import type { EvalTool } from '../optimize/backends/backend.js';
import { offlineCandidates } from '../optimize/generate.js';
import { generateCandidateTexts } from '../optimize/model-generate.js';
import { decidePrepared, evaluatePrepared, prepareTool, type PreparedTool, type ToolOptimizationInput } from '../optimize/pipeline.js';
import { nearestSiblings } from '../optimize/prompts.js';
import { ruleWith } from '../optimize/rule.js';
import type { Optimizer } from '../optimize/service.js';
import type { LoadedConfig } from '../config/index.js';
import type { Store } from '../store/index.js';
import { gatewayFor } from './context.js';
import { UsageError } from './inventory.js';
import { open, type OptimizeOptions } from './optimize.js';
import { phaseBar } from './optimize-progress.js';

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

type Summary = Record<string, unknown>;

export async function optimizeRun(server: string, options: RunOptions): Promise<void> {
  const { config, store, optimizer } = await open(options);
  try {
    if (!config.servers.some((s) => s.key === server)) throw new UsageError(`no server "${server}" in ${config.file}; configured: ${config.servers.map((s) => s.key).join(', ')}`);
    const settings = config.settings.optimization;
    const candidatesPerTool = intOption('--candidates', options.candidates, settings.candidates);
    const repeats = intOption('--repeats', options.repeats, settings.repeats);
    const backend = createBackend(settings.backends, options.backend ?? 'retrieval', options.model);
    try {
      const evalTools = await listTools(config, store, server);
      const wanted = options.tools ? options.tools.split(',').map((t) => t.trim()).filter(Boolean) : evalTools.map((t) => t.name);
      const unknown = wanted.filter((t) => !evalTools.some((e) => e.name === t));
      if (unknown.length) throw new UsageError(`--tools: ${server} has no tool ${unknown.join(', ')}`);
      const prompts = store.optimize.prompts(server);
      const siblings = nearestSiblings(evalTools, 3);
      const summary: Summary[] = [];
      const planned = wanted.filter((name) => {
        if (prompts.some((p) => p.tool === name)) return true;
        process.stderr.write(`${server}.${name}: no golden prompts; add some with "switchboard optimize prompts --server ${server} --import <file>" (skipped)\n`);
        summary.push({ tool: name, skipped: 'no golden prompts' });
        return false;
      });
      const phase = (name: 'generating' | 'evaluating' | 'deciding', total: number) => {
        if (total === 0) return () => undefined; // nothing to do in this phase (every tool skipped or linted out)
        const bar = phaseBar(name, total);
        return (done: number, tool: string) => {
          bar.update(done, tool);
          optimizer.events.emit('phase', { server, tool, phase: name, done, total });
          if (done >= total) bar.stop();
        };
      };

      // Generating: each tool's candidates (one model request per tool, or the offline generator), then the lint.
      const generating = phase('generating', planned.length);
      const work: Array<{ input: ToolOptimizationInput; prepared: PreparedTool }> = [];
      for (const [i, name] of planned.entries()) {
        generating(i, name);
        const tool = evalTools.find((t) => t.name === name)!;
        const texts = prompts.filter((p) => p.tool === name && p.split === 'optimize' && p.expectedBehavior.shouldCallTool).map((p) => p.prompt);
        const near = (siblings.get(name) ?? []).map((sibling) => evalTools.find((t) => t.name === sibling)!).filter(Boolean);
        const generated = backend.complete && !options.offlineCandidates
          ? (await generateCandidateTexts(backend, tool, near, texts, candidatesPerTool)).map((description) => ({ description, source: `model:${backend.name}/${backend.model}` }))
          : offlineCandidates(tool, texts, candidatesPerTool);
        const candidates = generated.map((c) => ({ id: `${server}.${name}.${randomUUID().slice(0, 8)}`, ...c }));
        const input: ToolOptimizationInput = { batch: randomUUID(), server, tool: name, tools: evalTools, prompts, siblings: siblings.get(name) ?? [], candidates, backend, repeats, rule: ruleWith(settings.rule) };
        work.push({ input, prepared: prepareTool(input) });
        generating(i + 1, name);
      }

      // Evaluating: one bar over every tool's selections (known exactly once the candidates are linted).
      const total = work.reduce((sum, w) => sum + w.prepared.selections, 0);
      const evaluating = phase('evaluating', total);
      let before = 0;
      const rows = [];
      for (const w of work) {
        const offset = before;
        rows.push(await evaluatePrepared(w.prepared, { ...w.input, onProgress: (done) => evaluating(offset + done, w.input.tool) }));
        before += w.prepared.selections;
      }

      // Deciding: the rule per tool on its runs (stored first, so promote can re-check them), then --auto-promote.
      const deciding = phase('deciding', work.length);
      for (const [i, w] of work.entries()) {
        deciding(i, w.input.tool);
        summary.push(decideTool(store, optimizer, w.prepared, rows[i], w.input, options.autoPromote === true));
        deciding(i + 1, w.input.tool);
      }
      if (options.json) process.stdout.write(`${JSON.stringify({ server, backend: backend.name, model: backend.model, tools: summary }, null, 2)}\n`);
      else for (const s of summary) process.stdout.write(`${formatSummary(s)}\n`);
    } finally {
      await backend.close?.();
    }
  } finally {
    store.close();
  }
}

/** Lists the server live (this also captures each tool's canonical definition); no tool is ever called. */
async function listTools(config: LoadedConfig, store: Store, server: string): Promise<EvalTool[]> {
  const gateway = gatewayFor(config, { lazy: false }, { store, credentials: new CredentialStore(path.dirname(store.path)) });
  try {
    await gateway.applyServers(config.servers);
    const catalog = gateway.catalogFor(BARE_PROFILE);
    await catalog.refresh(server);
    const listing = catalog.listing(server);
    if (listing.error) throw new Error(`${server}: cannot list its tools: ${listing.error}`);
    return (catalog.canonical(server) ?? []).map((t) => ({ name: t.name as string, description: t.description as string | undefined, inputSchema: t.inputSchema }));
  } finally {
    await gateway.close();
  }
}

function decideTool(store: Store, optimizer: Optimizer, prepared: PreparedTool, rows: Parameters<Store['optimize']['recordRuns']>[0], input: ToolOptimizationInput, autoPromote: boolean): Summary {
  const { server, tool } = input;
  for (const c of prepared.linted) store.optimize.saveCandidate({ id: c.id, server, tool, description: c.description, source: c.source, lint: c.findings.map((f) => ({ rule: f.rule, message: f.message })) });
  store.optimize.recordRuns(rows);
  const decision = decidePrepared(prepared, rows, input.rule);
  const rejected = prepared.linted.filter((c) => c.findings.length).map((c) => ({ candidate: c.id, lint: c.findings.map((f) => `${f.rule}: ${f.message}`) }));
  const promoted = decision?.best && autoPromote ? optimizer.promote(server, tool, { candidateId: decision.best }) : undefined;
  return {
    tool,
    candidates: prepared.linted.length,
    rejected,
    decision: decision?.candidates.map((c) => ({ candidate: c.candidateId, promote: c.promote, gain: c.gain, p: c.adjustedP, ...(c.failing && { failing: `${c.failing.name}: ${c.failing.detail}` }) })) ?? [],
    ...(decision?.best && { passing: decision.best }),
    ...(promoted && { promoted: promoted.candidateId, description: promoted.description }),
  };
}

function formatSummary(s: Summary): string {
  if (s.skipped) return `${s.tool}: skipped (${s.skipped})`;
  const head = s.promoted
    ? `promoted ${s.promoted}: ${s.description} (a running gateway shows it within about 2 s)`
    : s.passing
      ? `${s.passing} passes the rule (promote it with "switchboard optimize promote", or use --auto-promote)`
      : 'nothing promoted';
  const lines = [`${s.tool}: ${head}`];
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
