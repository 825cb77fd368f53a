// Owns token counting for tools/list budgets: the tokens of a tools/list result serialized as
// compact JSON ({"tools": [...]}), counted with gpt-tokenizer's default encoding (o200k_base, the
// GPT-4o / GPT-5 family). Other model families tokenize differently; treat the numbers as estimates
// that are exact for that encoding.
import { createRequire } from 'node:module';

// Loaded on first use: the encoder costs about 65 MB and 230 ms, which a gateway that never counts
// tokens should not pay at start.
let counter: ((text: string) => number) | undefined;
function countTokens(text: string): number {
  counter ??= (createRequire(import.meta.url)('gpt-tokenizer') as { countTokens: (text: string) => number }).countTokens;
  return counter(text);
}

export const TOKEN_ENCODING = 'o200k_base';

export function listingJson(tools: readonly unknown[]): string {
  return JSON.stringify({ tools });
}

export function listingTokens(tools: readonly unknown[]): number {
  return countTokens(listingJson(tools));
}
