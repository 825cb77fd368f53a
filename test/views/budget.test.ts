// The start-up budget check (views/budget.ts): a listing small enough in bytes is within the token
// budget without loading the encoder (about 65 MB that a gateway that never counts tokens keeps
// otherwise); larger ones are counted exactly.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import type { Entry } from '../../src/catalog/catalog.js';
import { budgetWarning } from '../../src/views/budget.js';
import { listingJson } from '../../src/views/tokens.js';

const encoderLoaded = () => Object.keys(createRequire(import.meta.url).cache).some((file) => file.includes('gpt-tokenizer'));
const tool = (name: string, description: string) => ({ name, description, inputSchema: { type: 'object' } }) as unknown as Entry;

describe('budgetWarning', () => {
  it('says nothing about a listing of fewer bytes than the budget, without loading the encoder', () => {
    const tools = [tool('a_echo', 'Echoes the message back.'), tool('a_sum', 'Adds two numbers.')];
    expect(Buffer.byteLength(listingJson(tools))).toBeLessThan(1000);
    expect(budgetWarning(tools, { tokenBudget: 1000, maxTools: 40, mode: 'passthrough' })).toBeUndefined();
    expect(encoderLoaded()).toBe(false);
  });

  it('counts tokens when the bytes exceed the budget: within it is silent, over it warns with the count', () => {
    // About 6,000 bytes of ordinary words: well under 6,000 tokens, well over 500.
    const tools = Array.from({ length: 20 }, (_, i) => tool(`a_tool${i}`, 'Reads the file at the given path and returns its text content. '.repeat(4)));
    const bytes = Buffer.byteLength(listingJson(tools));
    expect(budgetWarning(tools, { tokenBudget: bytes - 1, maxTools: 40, mode: 'passthrough' })).toBeUndefined();
    expect(encoderLoaded()).toBe(true);
    const warning = budgetWarning(tools, { tokenBudget: 500, maxTools: 40, mode: 'passthrough' });
    expect(warning?.message).toContain('tokenBudget 500');
    expect(warning?.fields.passthroughTokens).toBeGreaterThan(500);
    expect(warning?.fields.passthroughTokens).toBeLessThan(bytes);
  });

  it('counts when there are more tools than maxTools, however few the bytes', () => {
    const tools = Array.from({ length: 3 }, (_, i) => tool(`a_t${i}`, 'x'));
    expect(budgetWarning(tools, { tokenBudget: 20_000, maxTools: 2, mode: 'passthrough' })?.message).toContain('3 tools > maxTools 2');
  });
});
