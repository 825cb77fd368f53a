// Owns the one token counter of the process: gpt-tokenizer's default encoding (o200k_base, the
// GPT-4o / GPT-5 family), loaded on first use. Every count goes through here so the encoder exists
// once: it costs about 65 MB and 230 ms, which a gateway that never counts tokens should not pay, and
// a static ESM import elsewhere plus a lazy require here used to load two copies (the ESM and the
// CommonJS build), about 45 MB of RSS more after the first tools/list budget check.
import { createRequire } from 'node:module';

export const TOKEN_ENCODING = 'o200k_base';

let counter: ((text: string) => number) | undefined;

export function countTokens(text: string): number {
  counter ??= (createRequire(import.meta.url)('gpt-tokenizer') as { countTokens: (text: string) => number }).countTokens;
  return counter(text);
}
