// The openai and anthropic backends against a local stand-in speaking the real wire formats: the model is shown
// the whole tool list with only the evaluated description swapped, selections come back as tool ids, the
// pipeline records them, and configuration problems are errors that name what to fix.
import { afterEach, describe, expect, it } from 'vitest';
import { createBackend } from '../../src/optimize/backends/index.js';
import { BackendError } from '../../src/optimize/backends/backend.js';
import { optimizeTool } from '../../src/optimize/pipeline.js';
import { ruleWith } from '../../src/optimize/rule.js';
import type { EvalPrompt } from '../../src/optimize/evaluate.js';
import { startModelStandIn, type StandIn } from '../fixtures/model-standin.js';
import { generateCandidateTexts, generateGoldenPrompts } from '../../src/optimize/model-generate.js';

const standIns: StandIn[] = [];
afterEach(async () => {
  for (const s of standIns.splice(0)) await s.close();
  delete process.env.SB_TEST_MODEL_KEY;
});

const tools = [
  { name: 'get-sum', description: 'Adds two numbers.', inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } } },
  { name: 'echo', description: 'Echoes back the input message.', inputSchema: { type: 'object', properties: { message: { type: 'string' } } } },
];
const prompts: EvalPrompt[] = [
  { id: 'p1', tool: 'get-sum', category: 'direct', prompt: 'please add two numbers', expectedBehavior: { shouldCallTool: true }, split: 'optimize' },
  { id: 'p2', tool: 'get-sum', category: 'indirect', prompt: 'what is the total of my expenses', expectedBehavior: { shouldCallTool: true }, split: 'optimize' },
  { id: 'p3', tool: 'get-sum', category: 'negative', prompt: 'echo back this message', expectedBehavior: { shouldCallTool: false }, split: 'optimize' },
];

describe.each(['openai', 'anthropic'] as const)('%s backend (stand-in)', (type) => {
  it('shows the whole list with one description swapped and records the selections', async () => {
    const standIn = await startModelStandIn({ requireKey: 'sk-test' });
    standIns.push(standIn);
    process.env.SB_TEST_MODEL_KEY = 'sk-test';
    const backend = createBackend([{ name: 'm', type, baseUrl: type === 'openai' ? `${standIn.url}/v1` : standIn.url, model: 'stand-in-1', apiKeyEnv: 'SB_TEST_MODEL_KEY' }], 'm');
    const result = await optimizeTool({
      batch: 'b1',
      server: 'everything',
      tool: 'get-sum',
      tools,
      prompts,
      siblings: [],
      candidates: [{ id: 'c1', description: 'Adds two numbers and returns the total, e.g. expenses.', source: 'test' }],
      backend,
      repeats: 2,
      rule: ruleWith(),
    });
    // canonical, paraphrase control, c1 and its paraphrase, on 3 prompts, 2 repeats
    expect(result.rows).toHaveLength(4 * 3 * 2);
    const byKey = (subject: string, prompt: string) => result.rows.filter((r) => r.subject === subject && r.promptId === prompt);
    expect(byKey('canonical', 'p2').every((r) => !r.result.correct && r.result.calledTool === undefined)).toBe(true);
    expect(byKey('c1', 'p2').every((r) => r.result.correct && r.result.calledTool === 'get-sum')).toBe(true);
    expect(byKey('c1', 'p3').every((r) => r.result.correct && r.result.calledTool === 'echo')).toBe(true);
    expect(result.rows.every((r) => r.backend === 'm' && r.model === 'stand-in-1' && r.result.tokens! > 0)).toBe(true);
    // What the model was shown: every tool, only get-sum's description changing between subjects.
    const shown = standIn.requests.map((r) => {
      const list = (type === 'openai' ? (r.body.tools as Array<{ function: { name: string; description: string } }>).map((t) => t.function) : (r.body.tools as Array<{ name: string; description: string }>));
      return Object.fromEntries(list.map((t) => [t.name, t.description]));
    });
    expect(new Set(shown.map((s) => s.echo))).toEqual(new Set(['Echoes back the input message.']));
    expect(new Set(shown.map((s) => s['get-sum']))).toContain('Adds two numbers and returns the total, e.g. expenses.');
    expect(result.decision!.candidates[0].test).toBe('sign-flip-permutation');
  });

  it('names the missing key variable, the unreachable URL and a refused key', async () => {
    const settings = { name: 'm', type, baseUrl: 'http://127.0.0.1:9/v1', model: 'x', apiKeyEnv: 'SB_TEST_MODEL_KEY' } as const;
    if (type === 'anthropic') {
      expect(() => createBackend([settings], 'm')).toThrow('the environment variable SB_TEST_MODEL_KEY (its apiKeyEnv) is not set');
    } else {
      expect(() => createBackend([settings], 'm')).toThrow(/SB_TEST_MODEL_KEY/);
    }
    process.env.SB_TEST_MODEL_KEY = 'wrong';
    const unreachable = createBackend([settings], 'm');
    await expect(unreachable.select({ tools, prompt: 'add', arm: 'direct' })).rejects.toThrow(/backend "m": cannot reach http:\/\/127\.0\.0\.1:9\/.*check "baseUrl"/);
    const standIn = await startModelStandIn({ requireKey: 'sk-test' });
    standIns.push(standIn);
    const refused = createBackend([{ ...settings, baseUrl: type === 'openai' ? `${standIn.url}/v1` : standIn.url }], 'm');
    const error = await refused.select({ tools, prompt: 'add', arm: 'direct' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BackendError);
    expect((error as Error).message).toContain('refused the API key (HTTP 401)');
    expect(() => createBackend([], 'nope')).toThrow('backend "nope": no such backend; configured: retrieval');
  });
});

describe.each(['openai', 'anthropic'] as const)('%s backend writes golden prompts and candidates (stand-in)', (type) => {
  it('asks without tools, parses the JSON out of the answer, drops duplicates and bounds the count', async () => {
    const standIn = await startModelStandIn();
    standIns.push(standIn);
    process.env.SB_TEST_MODEL_KEY = 'unused';
    const backend = createBackend([{ name: 'm', type, baseUrl: type === 'openai' ? `${standIn.url}/v1` : standIn.url, model: 'stand-in-1', ...(type === 'anthropic' && { apiKeyEnv: 'SB_TEST_MODEL_KEY' }) }], 'm');
    const written = await generateGoldenPrompts(backend, tools[0], [tools[1]], 2);
    expect(written).toEqual({ direct: ['Please add 4 and 5', 'What is 10 plus 32?'], indirect: ['I have three invoices of 20, 30 and 50; what do they come to?', 'How much did I spend in total on rent and food?'], negative: ['Echo back the phrase good morning', 'Say hello back to me'] });
    const asked = JSON.stringify(standIn.requests[0].body);
    expect(asked).toContain('get-sum');
    expect(asked).toContain('Echoes back the input message.'); // the sibling it must be told apart from
    expect(standIn.requests[0].body.tools).toBeUndefined();
    const candidates = await generateCandidateTexts(backend, tools[0], [tools[1]], ['please add two numbers'], 1);
    expect(candidates).toEqual(['Adds two numbers and returns the total, for sums of expenses or counts.']);
  });
});

it('the retrieval backend writes nothing and says which backends do', async () => {
  const backend = createBackend([], 'retrieval');
  await expect(generateGoldenPrompts(backend, tools[0], [], 3)).rejects.toThrow(/does not generate text.*sampling/);
});
