// Owns token counting for tools/list budgets: the tokens of a tools/list result serialized as
// compact JSON ({"tools": [...]}), counted with the process's one counter (search/token-count.ts,
// o200k_base). Other model families tokenize differently; treat the numbers as estimates that are
// exact for that encoding.
import { countTokens, TOKEN_ENCODING } from '../search/token-count.js';

export { TOKEN_ENCODING };

export function listingJson(tools: readonly unknown[]): string {
  return JSON.stringify({ tools });
}

export function listingTokens(tools: readonly unknown[]): number {
  return countTokens(listingJson(tools));
}
