// Owns model-written inputs of the loop: golden prompts (direct, indirect, negative) for a tool and candidate
// descriptions, asked of a model backend (openai, anthropic, or the calling client through sampling). The model
// sees the tool, its schema and its nearest siblings; its JSON answer is validated, bounded and deduplicated.
// Candidates are linted by the caller like any other.
import { z } from 'zod';
import { BackendError, type EvaluationBackend } from './backends/backend.js';
import { MAX_DESCRIPTION_CHARS } from './lint.js';

export interface GeneratorTool {
  name: string;
  description?: string;
  inputSchema?: unknown;
}

export interface GeneratedPrompts {
  direct: string[];
  indirect: string[];
  negative: string[];
}

const SYSTEM =
  'You help evaluate how well a tool description lets an AI assistant pick the right tool. Answer with JSON only, no prose.';

const promptList = z.array(z.string().trim().min(10).max(4000));
const promptsAnswer = z.object({ direct: promptList, indirect: promptList, negative: promptList });
const candidatesAnswer = z.array(z.string().trim().min(10));

/** Golden prompts for `tool`: `perCategory` of each kind, written by the backend's model. */
export async function generateGoldenPrompts(backend: EvaluationBackend, tool: GeneratorTool, siblings: readonly GeneratorTool[], perCategory: number, signal?: AbortSignal): Promise<GeneratedPrompts> {
  const complete = completer(backend);
  const user = [
    `Write user requests for testing tool selection. The assistant has these tools among others:`,
    describe(tool, true),
    ...siblings.map((s) => describe(s, false)),
    '',
    `Write ${perCategory} requests of each kind for the tool "${tool.name}":`,
    `- "direct": the user plainly asks for what the tool does.`,
    `- "indirect": the user describes a goal that needs the tool without naming it or its wording.`,
    `- "negative": a near miss that should NOT use "${tool.name}" (another tool above, or no tool at all).`,
    'Vary wording and length; each request is one message a real user might send.',
    'Answer with exactly this JSON: {"direct": ["..."], "indirect": ["..."], "negative": ["..."]}',
  ].join('\n');
  const text = await complete({ system: SYSTEM, user, maxTokens: 4096, ...(signal && { signal }) });
  const parsed = promptsAnswer.safeParse(extractJson(text, '{'));
  if (!parsed.success) throw new BackendError(backend.name, `the model's golden prompts are not the JSON asked for (${parsed.error.issues[0].message} at ${parsed.error.issues[0].path.join('.') || 'top level'}): ${text.slice(0, 200)}`);
  const take = (list: string[]) => [...new Set(list)].slice(0, perCategory);
  return { direct: take(parsed.data.direct), indirect: take(parsed.data.indirect), negative: take(parsed.data.negative) };
}

/** Up to `count` rewritten descriptions for `tool` (each at most 280 characters), written by the backend's model. */
export async function generateCandidateTexts(backend: EvaluationBackend, tool: GeneratorTool, siblings: readonly GeneratorTool[], prompts: readonly string[], count: number, signal?: AbortSignal): Promise<string[]> {
  const complete = completer(backend);
  const user = [
    `Rewrite the description of the tool "${tool.name}" so an assistant picks it exactly when it fits. The tools:`,
    describe(tool, true),
    ...siblings.map((s) => describe(s, false)),
    ...(prompts.length ? ['', 'Requests it should be picked for:', ...prompts.slice(0, 12).map((p) => `- ${p.slice(0, 300)}`)] : []),
    '',
    `Write ${count} different descriptions, each at most ${MAX_DESCRIPTION_CHARS} characters: say what it does and when to use it`,
    'rather than a sibling; plain and factual, no instructions to the assistant and no words like "always", "must" or "best".',
    'Answer with exactly this JSON: ["...", "..."]',
  ].join('\n');
  const text = await complete({ system: SYSTEM, user, maxTokens: 2048, ...(signal && { signal }) });
  const parsed = candidatesAnswer.safeParse(extractJson(text, '['));
  if (!parsed.success) throw new BackendError(backend.name, `the model's candidates are not the JSON array asked for: ${text.slice(0, 200)}`);
  return [...new Set(parsed.data)].slice(0, count);
}

function completer(backend: EvaluationBackend): NonNullable<EvaluationBackend['complete']> {
  if (!backend.complete) throw new BackendError(backend.name, 'does not generate text (it is not a model backend); use "sampling", an openai or an anthropic backend, or write them yourself');
  return backend.complete.bind(backend);
}

function describe(tool: GeneratorTool, withSchema: boolean): string {
  const schema = withSchema && tool.inputSchema ? ` Input schema: ${JSON.stringify(tool.inputSchema).slice(0, 800)}` : '';
  return `- ${tool.name}: ${(tool.description ?? '(no description)').slice(0, 600)}${schema}`;
}

/** The first JSON value opening with `open` in a model's answer (models wrap JSON in prose or code fences). */
function extractJson(text: string, open: '{' | '['): unknown {
  const close = open === '{' ? '}' : ']';
  const start = text.indexOf(open);
  const end = text.lastIndexOf(close);
  if (start < 0 || end <= start) return undefined;
  try {
    return JSON.parse(text.slice(start, end + 1));
  } catch {
    return undefined;
  }
}
