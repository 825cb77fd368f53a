// Owns the views of stored optimization that the admin API serves: per server and tool, optimized or not, canonical
// vs promoted text with character counts, per-category rates before (canonical) and after (the promoted or best
// candidate) with their intervals, and the golden prompts with each one's pass/fail.
import { buildReport, type ToolReport } from './report.js';
import type { CategoryStats, Decision } from './rule.js';
import type { Optimizer } from './service.js';

export interface Rate {
  rate: number;
  low: number;
  high: number;
  runs: number;
  successes: number;
}

export interface ToolState {
  tool: string;
  /** Visible to clients under the server's enabledTools / disabledTools. */
  enabled: boolean;
  optimized: boolean;
  forced: boolean;
  stale: boolean;
  canonical: { text: string; chars: number };
  promoted?: { text: string; chars: number; candidateId?: string; promotedAt: number };
  prompts: { direct: number; indirect: number; negative: number; total: number };
  candidates: number;
  /** The newest evaluation: canonical (before) and the promoted or best candidate (after), per category. */
  evaluation?: { batch: string; candidateId?: string; passes: boolean; refused?: string; categories: Array<{ category: string; before: Rate; after?: Rate }> };
}

export interface ServerState {
  server: string;
  optimized: number;
  total: number;
  tools: ToolState[];
}

type Selection = { enabledTools?: readonly string[]; disabledTools?: readonly string[] };

const rateOf = (s: CategoryStats): Rate => ({ rate: s.wilson.rate, low: s.wilson.low, high: s.wilson.high, runs: s.runs, successes: s.successes });

function isEnabled(tool: string, selection: Selection): boolean {
  if (selection.enabledTools && !selection.enabledTools.includes(tool)) return false;
  return !selection.disabledTools?.includes(tool);
}

function evaluationOf(report: ToolReport, decision: Decision): ToolState['evaluation'] {
  const chosenId = report.promotion?.candidateId ?? decision.best ?? decision.candidates[0]?.candidateId;
  const chosen = decision.candidates.find((c) => c.candidateId === chosenId);
  return {
    batch: report.batch ?? '',
    ...(chosen && { candidateId: chosen.candidateId }),
    passes: chosen?.promote ?? false,
    ...(chosen?.failing && { refused: `${chosen.failing.name}: ${chosen.failing.detail}` }),
    categories: decision.canonical.optimize.map((before) => {
      const after = chosen?.summary.optimize.find((s) => s.category === before.category);
      return { category: before.category, before: rateOf(before), ...(after && { after: rateOf(after) }) };
    }),
  };
}

export function optimizationState(optimizer: Optimizer, servers: readonly string[], selectionOf: (server: string) => Selection): ServerState[] {
  const candidates = new Map(optimizer.status().map((s) => [`${s.server}\u0000${s.tool}`, s.candidates]));
  return servers.map((server) => {
    const selection = selectionOf(server);
    const tools = buildReport(optimizer, server).map((report): ToolState => {
      const canonical = report.canonical ?? '';
      const counts = { direct: 0, indirect: 0, negative: 0, total: report.prompts.length };
      for (const p of report.prompts) counts[p.category as 'direct' | 'indirect' | 'negative']++;
      const evaluation = report.decision ? evaluationOf(report, report.decision) : undefined;
      return {
        tool: report.tool,
        enabled: isEnabled(report.tool, selection),
        optimized: report.promotion !== undefined && !report.promotion.stale,
        forced: report.promotion?.forced ?? false,
        stale: report.promotion?.stale ?? false,
        canonical: { text: canonical, chars: canonical.length },
        ...(report.promotion && { promoted: { text: report.promotion.description, chars: report.promotion.description.length, ...(report.promotion.candidateId && { candidateId: report.promotion.candidateId }), promotedAt: report.promotion.promotedAt } }),
        prompts: counts,
        candidates: candidates.get(`${server}\u0000${report.tool}`) ?? 0,
        ...(evaluation && { evaluation }),
      };
    });
    return { server, optimized: tools.filter((t) => t.optimized).length, total: tools.length, tools };
  });
}

export interface PromptResult {
  id: string;
  category: string;
  split: string;
  prompt: string;
  expectedBehavior: { shouldCallTool: boolean; notes?: string };
  /** "passed/runs" of canonical and of the promoted or best candidate in the newest evaluation ("-": not run). */
  canonical: string;
  candidate?: string;
  /** Whether the text clients see now (promoted, else canonical) answered it right in every run. */
  passed?: boolean;
}

/** Per tool: its golden prompts with pass/fail, and per category the success rate of the text shown now. */
export function promptsWithResults(optimizer: Optimizer, server: string, tool?: string): Array<{ tool: string; prompts: PromptResult[]; rates: Record<string, number> }> {
  const stored = new Map(optimizer.repository.prompts(server, tool).map((p) => [p.id, p]));
  return buildReport(optimizer, server)
    .filter((r) => tool === undefined || r.tool === tool)
    .map((report) => {
      const chosenId = report.promotion?.candidateId ?? report.decision?.best;
      const prompts = report.prompts.map((p): PromptResult => {
        const shown = report.promotion && chosenId ? p.candidates[chosenId] : p.canonical;
        const [passed, runs] = (shown ?? '-').split('/').map(Number);
        return {
          id: p.id,
          category: p.category,
          split: p.split,
          prompt: p.prompt,
          expectedBehavior: stored.get(p.id)?.expectedBehavior ?? { shouldCallTool: p.category !== 'negative' },
          canonical: p.canonical,
          ...(chosenId && p.candidates[chosenId] && { candidate: p.candidates[chosenId] }),
          ...(runs > 0 && { passed: passed === runs }),
        };
      });
      const rates: Record<string, number> = {};
      for (const category of ['direct', 'indirect', 'negative']) {
        const judged = prompts.filter((p) => p.category === category && p.passed !== undefined);
        if (judged.length) rates[category] = judged.filter((p) => p.passed).length / judged.length;
      }
      return { tool: report.tool, prompts, rates };
    });
}
