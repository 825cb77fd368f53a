// Owns the optimization report: per tool, the canonical and the shown text (and where it comes from), the newest
// evaluation's per-category statistics for canonical and each candidate (Wilson interval, per-prompt lower bound),
// the decision with its conditions, and each prompt's pass/fail. As data (JSON) or Markdown.
import type { Promotion } from '../store/index.js';
import type { CategoryStats, Decision } from './rule.js';
import type { Optimizer } from './service.js';

export interface ToolReport {
  server: string;
  tool: string;
  canonical?: string;
  promotion?: Pick<Promotion, 'description' | 'forced' | 'stale' | 'staleReason' | 'candidateId' | 'promotedAt'>;
  batch?: string;
  decision?: Decision;
  prompts: Array<{ id: string; category: string; split: string; prompt: string; canonical: string; candidates: Record<string, string> }>;
}

export function buildReport(optimizer: Optimizer, server?: string): ToolReport[] {
  const repo = optimizer.repository;
  return optimizer.status(server).map((row) => {
    const evaluated = optimizer.decision(row.server, row.tool);
    const prompts = repo.prompts(row.server, row.tool);
    const runs = evaluated ? repo.runs({ batch: evaluated.batch }) : [];
    const passFail = (subject: string, promptId: string) => {
      const rs = runs.filter((r) => r.subject === subject && r.promptId === promptId);
      return rs.length ? `${rs.filter((r) => r.result.correct).length}/${rs.length}` : '-';
    };
    const candidateIds = evaluated?.decision.candidates.map((c) => c.candidateId) ?? [];
    return {
      server: row.server,
      tool: row.tool,
      ...(row.canonical !== undefined && { canonical: row.canonical }),
      ...(row.promotion && {
        promotion: {
          description: row.promotion.description,
          forced: row.promotion.forced,
          stale: row.promotion.stale,
          ...(row.promotion.staleReason && { staleReason: row.promotion.staleReason }),
          ...(row.promotion.candidateId && { candidateId: row.promotion.candidateId }),
          promotedAt: row.promotion.promotedAt,
        },
      }),
      ...(evaluated && { batch: evaluated.batch, decision: evaluated.decision }),
      prompts: prompts.map((p) => ({
        id: p.id,
        category: p.category,
        split: p.split,
        prompt: p.prompt,
        canonical: passFail('canonical', p.id),
        candidates: Object.fromEntries(candidateIds.map((id) => [id, passFail(id, p.id)])),
      })),
    };
  });
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

function statsLine(s: CategoryStats): string {
  return `${s.category}: ${s.successes}/${s.runs} = ${pct(s.wilson.rate)} [Wilson 95% ${pct(s.wilson.low)}–${pct(s.wilson.high)}], prompts passed ${s.promptsPassed}/${s.prompts} (CP 95% lower ${pct(s.promptLowerBound)})`;
}

export function reportMarkdown(reports: readonly ToolReport[]): string {
  const out: string[] = ['# Description optimization report', ''];
  for (const r of reports) {
    out.push(`## ${r.server}.${r.tool}`, '', `Canonical: ${r.canonical ?? '(none)'}`, '');
    if (r.promotion) {
      const flags = [r.promotion.forced && 'FORCED', r.promotion.stale && 'STALE'].filter(Boolean).join(', ');
      out.push(`Promoted${flags ? ` (${flags})` : ''}: ${r.promotion.description}`, '');
      if (r.promotion.staleReason) out.push(`Stale: ${r.promotion.staleReason}`, '');
    } else out.push('Promoted: none (canonical shown)', '');
    if (r.decision) {
      out.push(`Evaluation ${r.batch}:`, '');
      for (const split of ['optimize', 'holdout'] as const) {
        out.push(`- canonical, ${split}:`);
        for (const s of r.decision.canonical[split]) out.push(`  - ${statsLine(s)}`);
      }
      for (const c of r.decision.candidates) {
        out.push(`- candidate ${c.candidateId}: ${c.promote ? 'PASSES' : `refused (${c.failing!.name})`}, gain ${pct(c.gain)}, ${c.test} p = ${c.pValue.toPrecision(3)} (Holm ${c.adjustedP.toPrecision(3)})`);
        for (const split of ['optimize', 'holdout'] as const) for (const s of c.summary[split]) out.push(`  - ${split} ${statsLine(s)}`);
        for (const cond of c.conditions) out.push(`  - [${cond.passed ? 'x' : ' '}] ${cond.name}: ${cond.detail}`);
      }
      out.push('');
    }
    if (r.prompts.length) {
      const ids = Object.keys(r.prompts[0].candidates);
      out.push(`| prompt | category | split | canonical | ${ids.join(' | ')} |`, `|---|---|---|---|${ids.map(() => '---|').join('')}`);
      for (const p of r.prompts) out.push(`| ${p.prompt.replace(/\|/g, '\\|').slice(0, 80)} | ${p.category} | ${p.split} | ${p.canonical} | ${ids.map((id) => p.candidates[id]).join(' | ')} |`);
      out.push('');
    }
  }
  return out.join('\n');
}
