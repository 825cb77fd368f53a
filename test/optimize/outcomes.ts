// Test helper for the promotion rule: hand-built outcomes (`pass[i]` of `repeats` repeats succeed on prompt i of a
// category), and the same outcomes as stored eval-run rows of one arm with the golden prompts they refer to, so
// the rule can be driven through decideFromRows exactly as the CLI and the MCP tools drive it.
import type { Outcome } from '../../src/optimize/rule.js';
import type { EvalPrompt } from '../../src/optimize/evaluate.js';
import type { EvalRunRow, PromptCategory, PromptSplit } from '../../src/store/index.js';

export function outcomes(spec: Partial<Record<PromptCategory, number[]>>, options: { split?: PromptSplit; repeats?: number; tool?: string } = {}): Outcome[] {
  const repeats = options.repeats ?? 1;
  return Object.entries(spec).flatMap(([category, passes]) =>
    passes!.flatMap((pass, i) =>
      Array.from({ length: repeats }, (_, repeat) => ({
        promptId: `${options.tool ?? 't'}-${options.split ?? 'optimize'}-${category}-${i}`,
        tool: options.tool ?? 't',
        category: category as PromptCategory,
        split: options.split ?? 'optimize',
        repeat,
        correct: repeat < pass,
      })),
    ),
  );
}

export const ones = (n: number, v: number): number[] => Array.from({ length: n }, () => v);

/** Stored rows of `subject` in `arm`, one per outcome (the tool evaluated is `t`). */
export function rowsOf(subject: string, arm: string, list: readonly Outcome[]): EvalRunRow[] {
  return list.map((o) => ({
    batch: 'b1',
    server: 's',
    tool: 't',
    subject,
    promptId: o.promptId,
    repeat: o.repeat,
    backend: 'cc',
    model: 'stand-in',
    arm,
    result: { toolCalled: o.correct, correct: o.correct, durationMs: 1 },
  }));
}

/** The golden prompts the outcomes refer to (one per prompt id). */
export function promptsOf(list: readonly Outcome[]): EvalPrompt[] {
  const byId = new Map<string, EvalPrompt>();
  for (const o of list) {
    byId.set(o.promptId, { id: o.promptId, tool: o.tool, category: o.category, prompt: `prompt ${o.promptId}`, expectedBehavior: { shouldCallTool: o.category !== 'negative' }, split: o.split });
  }
  return [...byId.values()];
}
