// Owns the `llm` search mode's second stage: the top candidates of the lexical/hybrid first stage are
// shown to a chat model as a numbered list and re-ordered by the numbers it answers. Bounded: at most
// `candidates` tools, a prompt token budget (the list is cut from the tail to fit), an answer token
// budget and a timeout. Any failure (slow, HTTP error, malformed answer) returns the first stage's
// order with a note. Answers are cached per (catalog version, query, candidate list) in a bounded LRU.
import { countTokens } from '../token-count.js';
import { ChatModelError, type ChatModel } from './chat.js';

export interface RerankCandidate {
  key: string;
  server: string;
  name: string;
  description: string;
}

export interface RerankOptions {
  /** How many first-stage candidates the model sees (20-30 is the design range). */
  candidates: number;
  timeoutMs: number;
  /** Tokens the model may answer with. */
  maxAnswerTokens: number;
  /** Tokens the prompt may take; candidates are dropped from the tail until it fits. */
  maxPromptTokens: number;
  /** Characters of each description shown. */
  descriptionChars: number;
  cacheSize: number;
}

export const DEFAULT_RERANK_OPTIONS: RerankOptions = {
  candidates: 25,
  timeoutMs: 8000,
  maxAnswerTokens: 200,
  maxPromptTokens: 4000,
  descriptionChars: 240,
  cacheSize: 500,
};

export interface RerankResult {
  /** Candidate keys, best first: the model's order, then candidates it left out in first-stage order. */
  keys: string[];
  /** `llm` when the model's order was used, `first-stage` when it fell back. */
  stage: 'llm' | 'first-stage';
  cached: boolean;
  /** Why the model's order was not used. */
  note?: string;
}

const SYSTEM =
  'You rank software tools for a request. Answer with a JSON array of the numbers of the tools that can help, most useful first, ' +
  'for example [3, 1, 7]. Answer with the array only.';

/** The user message: the request and the numbered candidates, cut from the tail to fit `maxTokens`. */
export function buildPrompt(query: string, candidates: readonly RerankCandidate[], o: RerankOptions): { text: string; shown: number } {
  const head = `Request: ${query.slice(0, 2000)}\n\nTools:\n`;
  const lines = candidates.map((c, i) => `${i + 1}. ${c.name} (server ${c.server}): ${c.description.replace(/\s+/g, ' ').slice(0, o.descriptionChars)}`);
  let shown = lines.length;
  let text = head + lines.join('\n');
  while (shown > 1 && countTokens(SYSTEM + text) > o.maxPromptTokens) {
    shown--;
    text = head + lines.slice(0, shown).join('\n');
  }
  return { text, shown };
}

/** The model's answer as 0-based candidate positions (known, distinct), or an error saying what was wrong. */
export function parseRanking(answer: string, shown: number): number[] {
  const match = /\[[\s\d,]*\]/.exec(answer);
  if (!match) throw new ChatModelError(`the model's answer holds no JSON array of numbers: ${JSON.stringify(answer.slice(0, 120))}`);
  const numbers = JSON.parse(match[0]) as unknown[];
  const out: number[] = [];
  for (const n of numbers) {
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > shown) continue;
    if (!out.includes(n - 1)) out.push(n - 1);
  }
  if (out.length === 0) throw new ChatModelError(`the model's answer names none of the ${shown} tools: ${JSON.stringify(answer.slice(0, 120))}`);
  return out;
}

export class LlmReranker {
  readonly options: RerankOptions;
  private readonly cache = new Map<string, string[]>();

  constructor(options: Partial<RerankOptions> = {}) {
    this.options = { ...DEFAULT_RERANK_OPTIONS, ...options };
  }

  /**
   * Re-ranks `candidates` (first-stage order, best first) for `query` with `model`. `catalogVersion`
   * keys the cache: a changed catalog asks again. Never throws for model trouble: falls back.
   */
  async rerank(model: ChatModel, query: string, candidates: readonly RerankCandidate[], catalogVersion: string): Promise<RerankResult> {
    const pool = candidates.slice(0, this.options.candidates);
    const firstStage = candidates.map((c) => c.key);
    if (pool.length < 2) return { keys: firstStage, stage: 'first-stage', cached: false, note: 'fewer than two candidates: nothing to re-rank' };
    const cacheKey = `${catalogVersion}\u0000${model.label}\u0000${query}\u0000${pool.map((c) => c.key).join('\u0001')}`;
    const hit = this.cache.get(cacheKey);
    if (hit) {
      this.cache.delete(cacheKey); // most recently used last
      this.cache.set(cacheKey, hit);
      return { keys: complete(hit, firstStage), stage: 'llm', cached: true };
    }
    const { text, shown } = buildPrompt(query, pool, this.options);
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.options.timeoutMs);
    let order: string[];
    try {
      const answer = await Promise.race([
        model.complete({ system: SYSTEM, user: text, maxTokens: this.options.maxAnswerTokens, signal: controller.signal }),
        new Promise<never>((_, reject) => controller.signal.addEventListener('abort', () => reject(new ChatModelError(`no answer within ${this.options.timeoutMs} ms`)))),
      ]);
      order = parseRanking(answer, shown).map((i) => pool[i]!.key);
    } catch (error) {
      if (!(error instanceof ChatModelError)) throw error;
      return { keys: firstStage, stage: 'first-stage', cached: false, note: `llm re-ranking (${model.label}) failed: ${error.message}; these are the first-stage results` };
    } finally {
      clearTimeout(timer);
    }
    this.cache.set(cacheKey, order);
    if (this.cache.size > this.options.cacheSize) this.cache.delete(this.cache.keys().next().value!);
    return { keys: complete(order, firstStage), stage: 'llm', cached: false };
  }
}

/** The model's order followed by every other first-stage key in its original order. */
function complete(order: readonly string[], firstStage: readonly string[]): string[] {
  const seen = new Set(order);
  return [...order, ...firstStage.filter((k) => !seen.has(k))];
}
