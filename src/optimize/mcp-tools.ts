// Owns the optimization tools a client can drive the loop with on /gateway/mcp (when optimization is enabled):
// canonical tools, candidates (linted on arrival), golden prompts, recorded eval runs, results, promotion (live:
// every face updates and clients hear list_changed) and revert, and the report. Arguments validated with zod.
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { BackendContext } from './backends/backend.js';
import { lintCandidate } from './lint.js';
import { offlineCandidates } from './generate.js';
import { generateCandidateTexts, generateGoldenPrompts } from './model-generate.js';
import { optimizeTool } from './pipeline.js';
import { nearestSiblings } from './prompts.js';
import { buildReport } from './report.js';
import { PromotionRefused } from './service.js';
import type { OptimizationToolHost } from './tool-host.js';

export type { OptimizationToolHost } from './tool-host.js';

type Result = Record<string, unknown>;

interface ToolDef {
  name: string;
  description: string;
  schema: z.ZodType;
  readOnly: boolean;
  run(host: OptimizationToolHost, args: never, caller: BackendContext): Promise<unknown> | unknown;
}

export const promptSchema = z.strictObject({
  id: z.string().min(1).max(200).optional(),
  tool: z.string().min(1).max(200),
  category: z.enum(['direct', 'indirect', 'negative']),
  prompt: z.string().min(10).max(4000),
  expectedBehavior: z.strictObject({ shouldCallTool: z.boolean(), notes: z.string().max(1000).optional() }).optional(),
  split: z.enum(['optimize', 'holdout']).optional(),
});

const TOOLS: ToolDef[] = [
  {
    name: 'get_canonical_tools',
    description: 'The tools of a server exactly as the server lists them (canonical descriptions), with what clients are shown now.',
    schema: z.strictObject({ server: z.string().min(1) }),
    readOnly: true,
    async run(host, { server }: { server: string }) {
      const tools = await host.canonicalTools(server);
      const status = new Map(host.optimizer.status(server).map((s) => [s.tool, s]));
      return { server, tools: tools.map((t) => ({ ...t, promoted: status.get(t.name)?.promotion?.description ?? null })) };
    },
  },
  {
    name: 'propose_candidate',
    description: 'Store a candidate description for a tool (at most 280 characters). It is linted first; findings name the rule and the offending text.',
    schema: z.strictObject({ server: z.string().min(1), tool: z.string().min(1), description: z.string().min(1).max(2000), example: z.string().max(2000).optional() }),
    readOnly: false,
    async run(host, a: { server: string; tool: string; description: string; example?: string }) {
      const tools = await host.canonicalTools(a.server);
      if (!tools.some((t) => t.name === a.tool)) throw new Error(`${a.server} has no tool "${a.tool}"`);
      const findings = lintCandidate(a.description, {
        goldenPrompts: host.optimizer.repository.prompts(a.server, a.tool).map((p) => p.prompt),
        catalogDescriptions: tools.map((t) => t.description ?? ''),
        otherTools: tools.filter((t) => t.name !== a.tool).map((t) => t.name),
      });
      const candidate = host.optimizer.repository.saveCandidate({ id: `${a.server}.${a.tool}.${randomUUID().slice(0, 8)}`, server: a.server, tool: a.tool, description: a.description, ...(a.example && { example: a.example }), source: 'client', lint: findings.map((f) => ({ rule: f.rule, message: f.message })) });
      return { candidate, accepted: findings.length === 0, findings };
    },
  },
  {
    name: 'save_golden_prompts',
    description: 'Store golden prompts for a server\'s tools ({tool, category: direct|indirect|negative, prompt, expectedBehavior?, split?}); every third prompt of a category is held out unless split is given.',
    schema: z.strictObject({ server: z.string().min(1), prompts: z.array(promptSchema).min(1).max(500) }),
    readOnly: false,
    run(host, a: { server: string; prompts: Array<z.infer<typeof promptSchema>> }) {
      const saved = savePrompts(host, a.server, a.prompts, 'client');
      return { saved: saved.length, ids: saved.map((p) => p.id) };
    },
  },
  {
    name: 'generate_golden_prompts',
    description: 'Have a model write golden prompts (direct, indirect, negative) for one tool or every tool of a server, and store them (every third of a category held out). backend: "sampling" (your own model, through MCP sampling) or a configured openai/anthropic backend.',
    schema: z.strictObject({ server: z.string().min(1), tool: z.string().min(1).optional(), backend: z.string().min(1).max(100), perCategory: z.int().min(1).max(30).optional() }),
    readOnly: false,
    async run(host, a: { server: string; tool?: string; backend: string; perCategory?: number }, caller: BackendContext) {
      const tools = await host.canonicalTools(a.server);
      if (a.tool && !tools.some((t) => t.name === a.tool)) throw new Error(`${a.server} has no tool "${a.tool}"`);
      const targets = a.tool ? tools.filter((t) => t.name === a.tool) : tools.slice(0, MAX_GENERATED_TOOLS);
      const backend = host.backend(a.backend, caller);
      const siblings = nearestSiblings(tools, 3);
      // 15 per category: 10 to optimize on, 5 held out (see the simulation in docs/optimization.md for what fewer costs).
      const perCategory = a.perCategory ?? 15;
      const events = host.optimizer.events;
      const saved: Record<string, number> = {};
      try {
        for (const [i, tool] of targets.entries()) {
          events.emit('phase', { server: a.server, tool: tool.name, phase: 'generating', done: i, total: targets.length });
          const near = (siblings.get(tool.name) ?? []).map((name) => tools.find((t) => t.name === name)!).filter(Boolean);
          const written = await generateGoldenPrompts(backend, tool, near, perCategory);
          const rows = (['direct', 'indirect', 'negative'] as const).flatMap((category) => written[category].map((prompt) => ({ tool: tool.name, category, prompt })));
          saved[tool.name] = savePrompts(host, a.server, rows, `model:${backend.name}/${backend.model}`).length;
        }
      } finally {
        await backend.close?.();
      }
      return { saved, backend: backend.name, model: backend.model, skippedTools: tools.length - targets.length };
    },
  },
  {
    name: 'generate_candidates',
    description: 'Generate candidate descriptions for a tool; each is linted and stored. Without backend: offline (the description plus the task words its optimize-split golden prompts use and it lacks). With backend ("sampling" or a configured openai/anthropic backend): written by that model.',
    schema: z.strictObject({ server: z.string().min(1), tool: z.string().min(1), count: z.int().min(1).max(8).optional(), backend: z.string().min(1).max(100).optional() }),
    readOnly: false,
    async run(host, a: { server: string; tool: string; count?: number; backend?: string }, caller: BackendContext) {
      const tools = await host.canonicalTools(a.server);
      const tool = tools.find((t) => t.name === a.tool);
      if (!tool) throw new Error(`${a.server} has no tool "${a.tool}"`);
      const prompts = host.optimizer.repository.prompts(a.server, a.tool);
      const texts = prompts.filter((p) => p.split === 'optimize' && p.expectedBehavior.shouldCallTool).map((p) => p.prompt);
      let generated: Array<{ description: string; source: string }>;
      if (a.backend) {
        const backend = host.backend(a.backend, caller);
        try {
          const near = (nearestSiblings(tools, 3).get(a.tool) ?? []).map((name) => tools.find((t) => t.name === name)!).filter(Boolean);
          const written = await generateCandidateTexts(backend, tool, near, texts, a.count ?? 4);
          generated = written.map((description) => ({ description, source: `model:${backend.name}/${backend.model}` }));
        } finally {
          await backend.close?.();
        }
      } else {
        generated = offlineCandidates(tool, texts, a.count ?? 4);
      }
      return generated.map((c) => {
        const findings = lintCandidate(c.description, { goldenPrompts: prompts.map((p) => p.prompt), catalogDescriptions: tools.map((t) => t.description ?? ''), otherTools: tools.filter((t) => t.name !== a.tool).map((t) => t.name) });
        return host.optimizer.repository.saveCandidate({ id: `${a.server}.${a.tool}.${randomUUID().slice(0, 8)}`, server: a.server, tool: a.tool, description: c.description, source: c.source, lint: findings.map((f) => ({ rule: f.rule, message: f.message })) });
      });
    },
  },
  {
    name: 'run_evaluation',
    description: 'Evaluate canonical, the paraphrase control and the tool\'s lint-clean candidates on its golden prompts with a backend (default retrieval; "sampling" asks your own model through MCP sampling); the runs are stored and the rule\'s decision returned.',
    schema: z.strictObject({ server: z.string().min(1), tool: z.string().min(1), backend: z.string().min(1).optional(), repeats: z.int().min(1).max(20).optional() }),
    readOnly: false,
    async run(host, a: { server: string; tool: string; backend?: string; repeats?: number }, caller: BackendContext) {
      const tools = await host.canonicalTools(a.server);
      const repo = host.optimizer.repository;
      const candidates = repo.candidates(a.server, a.tool).filter((c) => c.lint.length === 0).slice(-8);
      const backend = host.backend(a.backend, caller);
      try {
        const events = host.optimizer.events;
        const onProgress = (done: number, total: number) => events.emit('phase', { server: a.server, tool: a.tool, phase: 'evaluating', done, total });
        const result = await optimizeTool({ batch: randomUUID(), server: a.server, tool: a.tool, tools, prompts: repo.prompts(a.server), siblings: nearestSiblings(tools, 3).get(a.tool) ?? [], candidates, backend, repeats: a.repeats ?? 3, rule: host.rule, onProgress });
        repo.recordRuns(result.rows);
        events.emit('phase', { server: a.server, tool: a.tool, phase: 'done', done: 1, total: 1 });
        return { runs: result.rows.length, decision: result.decision ?? null };
      } finally {
        await backend.close?.();
      }
    },
  },
  {
    name: 'record_eval_run',
    description: 'Record evaluation results a client measured itself (subject: a candidate id, "canonical", "paraphrase" or "paraphrase:<id>").',
    schema: z.strictObject({
      server: z.string().min(1),
      tool: z.string().min(1),
      batch: z.string().min(1).max(100),
      backend: z.string().min(1).max(100),
      model: z.string().min(1).max(200),
      runs: z.array(z.strictObject({ subject: z.string().min(1), promptId: z.string().min(1), repeat: z.int().min(0), arm: z.string().min(1).max(40).optional(), calledTool: z.string().optional(), correct: z.boolean(), error: z.string().max(2000).optional(), durationMs: z.number().min(0), tokens: z.int().min(0).optional() })).min(1).max(10_000),
    }),
    readOnly: false,
    run(host, a: { server: string; tool: string; batch: string; backend: string; model: string; runs: Array<{ subject: string; promptId: string; repeat: number; arm?: string; calledTool?: string; correct: boolean; error?: string; durationMs: number; tokens?: number }> }) {
      host.optimizer.repository.recordRuns(
        a.runs.map((r) => ({ batch: a.batch, server: a.server, tool: a.tool, subject: r.subject, promptId: r.promptId, repeat: r.repeat, backend: a.backend, model: a.model, arm: r.arm ?? 'client', result: { toolCalled: r.calledTool !== undefined, ...(r.calledTool !== undefined && { calledTool: r.calledTool }), correct: r.correct, ...(r.error && { error: r.error }), durationMs: r.durationMs, ...(r.tokens !== undefined && { tokens: r.tokens }) } })),
      );
      return { recorded: a.runs.length };
    },
  },
  {
    name: 'get_eval_results',
    description: 'The promotion rule\'s decision on the newest evaluation of a tool: per-category statistics, each candidate\'s conditions.',
    schema: z.strictObject({ server: z.string().min(1), tool: z.string().min(1) }),
    readOnly: true,
    run(host, a: { server: string; tool: string }) {
      return host.optimizer.decision(a.server, a.tool) ?? { decision: null, note: 'no evaluation recorded for this tool' };
    },
  },
  {
    name: 'promote_candidate',
    description: 'Promote a candidate: refused with the failing condition unless its evaluation passes the rule; force: true promotes anyway (recorded and shown as forced). Clients see it at once.',
    schema: z.strictObject({ server: z.string().min(1), tool: z.string().min(1), candidateId: z.string().min(1).optional(), description: z.string().min(1).max(4000).optional(), force: z.boolean().optional() }),
    readOnly: false,
    run(host, a: { server: string; tool: string; candidateId?: string; description?: string; force?: boolean }) {
      try {
        return { promotion: host.optimizer.promote(a.server, a.tool, a) };
      } catch (error) {
        if (error instanceof PromotionRefused) return { refused: true, condition: error.condition, message: error.message };
        throw error;
      }
    },
  },
  {
    name: 'revert_optimization',
    description: 'Restore the canonical description of a server\'s promoted tools (or only the given ones).',
    schema: z.strictObject({ server: z.string().min(1), tools: z.array(z.string().min(1)).max(1000).optional() }),
    readOnly: false,
    run(host, a: { server: string; tools?: string[] }) {
      return { reverted: host.optimizer.revert(a.server, a.tools) };
    },
  },
  {
    name: 'get_optimization_report',
    description: 'Per tool: canonical vs promoted text (forced, stale), the newest evaluation with intervals and lower bounds, each prompt pass/fail.',
    schema: z.strictObject({ server: z.string().min(1).optional() }),
    readOnly: true,
    run(host, a: { server?: string }) {
      return { tools: buildReport(host.optimizer, a.server) };
    },
  },
];

export const OPTIMIZATION_TOOL_NAMES: ReadonlySet<string> = new Set(TOOLS.map((t) => t.name));

export function optimizationToolList(): Result[] {
  return TOOLS.map((t) => ({
    name: t.name,
    description: t.description,
    inputSchema: z.toJSONSchema(t.schema) as Result,
    annotations: { readOnlyHint: t.readOnly, openWorldHint: false },
  }));
}

/** Runs one tool; a bad argument or a failure is a tool error result (isError) naming the problem. */
/** Generating prompts for a whole server asks the model once per tool: at most this many tools per call. */
const MAX_GENERATED_TOOLS = 25;

/** Stores golden prompts; every third prompt of a tool's category is held out unless a split is given. */
export function savePrompts(host: OptimizationToolHost, server: string, prompts: ReadonlyArray<Omit<z.infer<typeof promptSchema>, 'id'> & { id?: string }>, source: string) {
  const counters = new Map<string, number>();
  return host.optimizer.repository.savePrompts(
    prompts.map((p) => {
      const n = (counters.get(`${p.tool}:${p.category}`) ?? 0) + 1;
      counters.set(`${p.tool}:${p.category}`, n);
      return { id: p.id ?? `${server}.${p.tool}.${p.category}.${randomUUID().slice(0, 8)}`, server, tool: p.tool, category: p.category, prompt: p.prompt, expectedBehavior: p.expectedBehavior ?? { shouldCallTool: p.category !== 'negative' }, split: p.split ?? (n % 3 === 0 ? 'holdout' : 'optimize'), source };
    }),
  );
}

export async function callOptimizationTool(host: OptimizationToolHost, name: string, args: unknown, caller: BackendContext = {}): Promise<Result> {
  const tool = TOOLS.find((t) => t.name === name)!;
  const parsed = tool.schema.safeParse(args ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { isError: true, content: [{ type: 'text', text: `${name}: invalid argument ${issue.path.join('.') || '(arguments)'}: ${issue.message}` }] };
  }
  try {
    const value = await tool.run(host, parsed.data as never, caller);
    const structured = (Array.isArray(value) ? { items: value } : value) as Result;
    return { content: [{ type: 'text', text: JSON.stringify(value, null, 2) }], structuredContent: structured };
  } catch (error) {
    return { isError: true, content: [{ type: 'text', text: `${name}: ${(error as Error).message}` }] };
  }
}
