// Owns running an evaluation: canonical, the paraphrase null-control, every candidate and its paraphrase, on the
// same golden prompts (the tool's own and its siblings'), interleaved, `repeats` times, through one backend.
// Each subject sees the whole tool list with only the evaluated tool's description swapped. Produces eval-run
// rows and turns stored rows back into the rule's outcomes.
import type { EvalRunRow, GoldenPrompt } from '../store/index.js';
import { BackendError, toolId, type EvalTool, type EvaluationBackend } from './backends/backend.js';
import type { Outcome } from './rule.js';

export interface Subject {
  /** A candidate id, "canonical", "paraphrase" (the null-control) or "paraphrase:<candidate id>". */
  subject: string;
  description: string;
}

export type EvalPrompt = Pick<GoldenPrompt, 'id' | 'tool' | 'category' | 'prompt' | 'expectedBehavior' | 'split'>;

export interface EvaluationInput {
  batch: string;
  server: string;
  /** toolId of the evaluated tool. */
  tool: string;
  /** The whole tool list as canonical. */
  tools: readonly EvalTool[];
  prompts: readonly EvalPrompt[];
  subjects: readonly Subject[];
  repeats: number;
  backend: EvaluationBackend;
  /** Called after every selection (done, total). */
  onProgress?: (done: number, total: number) => void;
  signal?: AbortSignal;
}

/** Whether a selection is right for a prompt: its tool chosen when it should be, not chosen when it should not. */
export function isCorrect(prompt: Pick<EvalPrompt, 'tool' | 'expectedBehavior'>, calledTool: string | undefined): boolean {
  return prompt.expectedBehavior.shouldCallTool ? calledTool === prompt.tool : calledTool !== prompt.tool;
}

/** How many selections an evaluation makes (deterministic backends run each once; every arm runs every prompt). */
export function evaluationSize(backend: Pick<EvaluationBackend, 'deterministic' | 'arms'>, repeats: number, prompts: number, subjects: number): number {
  return (backend.deterministic ? 1 : repeats) * prompts * subjects * backend.arms.length;
}

export async function runEvaluation(input: EvaluationInput): Promise<EvalRunRow[]> {
  const repeats = input.backend.deterministic ? 1 : input.repeats;
  const index = input.tools.findIndex((t) => toolId(t) === input.tool);
  if (index < 0) throw new Error(`${input.server}: no tool "${input.tool}" in the evaluated tool list`);
  const lists = new Map(input.subjects.map((s) => [s.subject, input.tools.map((t, i) => (i === index ? { ...t, description: s.description } : t))]));
  const total = evaluationSize(input.backend, input.repeats, input.prompts.length, input.subjects.length);
  const rows: EvalRunRow[] = [];
  let done = 0;
  for (let repeat = 0; repeat < repeats; repeat++) {
    for (const prompt of input.prompts) {
      for (const arm of input.backend.arms) {
        // Interleaved: every subject answers the same prompt before the next one, so drift hits all alike.
        for (const subject of input.subjects) {
          input.signal?.throwIfAborted();
          const started = performance.now();
          let calledTool: string | undefined;
          let error: string | undefined;
          let tokens: number | undefined;
          try {
            const selection = await input.backend.select({ tools: lists.get(subject.subject)!, prompt: prompt.prompt, arm, ...(input.signal && { signal: input.signal }) });
            calledTool = selection.calledTool;
            tokens = selection.tokens;
          } catch (e) {
            if (e instanceof BackendError) throw e; // a backend that cannot run stops the evaluation, never a silent "wrong"
            error = (e as Error).message;
          }
          rows.push({
            batch: input.batch,
            server: input.server,
            tool: input.tool,
            subject: subject.subject,
            promptId: prompt.id,
            repeat,
            backend: input.backend.name,
            model: input.backend.model,
            arm,
            result: {
              toolCalled: calledTool !== undefined,
              ...(calledTool !== undefined && { calledTool }),
              correct: error === undefined && isCorrect(prompt, calledTool),
              ...(error !== undefined && { error }),
              durationMs: performance.now() - started,
              ...(tokens !== undefined && { tokens }),
            },
          });
          input.onProgress?.(++done, total);
        }
      }
    }
  }
  return rows;
}

/** The rule's outcomes of one subject (and arm), joined with the prompts' category, split and tool. */
export function outcomesOf(rows: readonly EvalRunRow[], prompts: readonly EvalPrompt[], subject: string, arm?: string): Outcome[] {
  const byId = new Map(prompts.map((p) => [p.id, p]));
  return rows.flatMap((r) => {
    const p = byId.get(r.promptId);
    if (r.subject !== subject || !p || (arm !== undefined && r.arm !== arm)) return [];
    return [{ promptId: arm === undefined ? `${r.promptId}\u0000${r.arm}` : r.promptId, tool: p.tool, category: p.category, split: p.split, repeat: r.repeat, correct: r.result.correct }];
  });
}
