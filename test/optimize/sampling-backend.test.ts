// The `sampling` backend and model-written inputs, end to end: a real SDK client that declares sampling with
// tools drives the loop on /gateway/mcp of a real gateway in front of server-everything. Its sampling handler is
// the stand-in for the client's model (the boundary we cannot run here): it writes golden prompts and candidate
// descriptions as JSON when asked for text, and picks a tool by word overlap when given tools. The gateway must
// send the whole tool list with the evaluated description swapped in, read the tool_use back, and store the runs
// under the model the client reported. A client without sampling.tools gets a clear refusal.
import { afterEach, describe, expect, it } from 'vitest';
import { connectHttp, newClient, npmServer, startHttpGateway, writeConfig, type ConnectedClient } from '../helpers/gateway.js';

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn().catch(() => undefined);
});

async function call(c: ConnectedClient, name: string, args: Record<string, unknown>): Promise<{ isError?: boolean; value: Record<string, unknown>; text: string }> {
  const result = (await c.client.callTool({ name, arguments: args })) as { isError?: boolean; content: Array<{ text: string }>; structuredContent?: Record<string, unknown> };
  return { isError: result.isError, value: result.structuredContent ?? {}, text: result.content[0].text };
}

type SamplingParams = { messages: Array<{ content: { type: string; text?: string } }>; systemPrompt?: string; tools?: Array<{ name: string; description?: string }> };

const words = (text: string) => new Set(text.toLowerCase().match(/[a-z]{3,}/g) ?? []);

/** The stand-in model: JSON for generation requests, a tool_use chosen by word overlap for selections. */
function standInModel(seen: SamplingParams[]) {
  return async (request: { params: unknown }) => {
    const params = request.params as SamplingParams;
    seen.push(params);
    const user = params.messages[0].content.text ?? '';
    if (!params.tools) {
      const text = user.includes('{"direct"')
        ? JSON.stringify({
            direct: ['Add 17 and 25 for me please', 'What is the sum of 3 and 9?', 'Sum the numbers 100 and 250'],
            indirect: ['I bought 4 apples and then 7 more, how many do I have in total?', 'Total of my two invoices: 120 and 80', 'Combine these two counts: 12 and 30'],
            negative: ['Repeat back the words hello world exactly', 'Show me a tiny image please', 'What environment variables are set?'],
          })
        : `Here you go:\n${JSON.stringify(['Adds two numbers and returns their sum; use it for totals of counts, amounts or invoices.', 'Returns the sum of two numbers a and b, for adding up totals.'])}`;
      return { model: 'stand-in-model', role: 'assistant' as const, content: { type: 'text' as const, text } };
    }
    const asked = words(user);
    let best: { name: string; score: number } | undefined;
    for (const tool of params.tools) {
      const score = [...words(`${tool.name.replace(/[-_]/g, ' ')} ${tool.description ?? ''}`)].filter((w) => asked.has(w)).length;
      if (score > 0 && (!best || score > best.score)) best = { name: tool.name, score };
    }
    if (!best) return { model: 'stand-in-model', role: 'assistant' as const, content: { type: 'text' as const, text: 'No tool fits.' }, stopReason: 'endTurn' };
    return { model: 'stand-in-model', role: 'assistant' as const, content: [{ type: 'tool_use' as const, id: 'call-1', name: best.name, input: {} }], stopReason: 'toolUse' };
  };
}

describe('the sampling backend', () => {
  it('generates prompts and candidates with the client\'s model and evaluates through it', async () => {
    const gw = await startHttpGateway(await writeConfig({ everything: npmServer('everything') }), ['--enable-optimization']);
    cleanup.push(() => gw.close());
    const seen: SamplingParams[] = [];
    const client = newClient({ sampling: { tools: {} } });
    client.setRequestHandler('sampling/createMessage', standInModel(seen) as never);
    const admin = await connectHttp(gw.url, client, '/gateway/mcp');
    cleanup.push(() => admin.close());

    const prompts = await call(admin, 'generate_golden_prompts', { server: 'everything', tool: 'get-sum', backend: 'sampling', perCategory: 3 });
    expect(prompts.isError, prompts.text).not.toBe(true);
    expect(prompts.value).toMatchObject({ saved: { 'get-sum': 9 }, backend: 'sampling', model: 'stand-in-model' });
    // The model was shown the tool it writes for.
    expect(seen[0].messages[0].content.text).toContain('get-sum');

    const candidates = await call(admin, 'generate_candidates', { server: 'everything', tool: 'get-sum', backend: 'sampling', count: 2 });
    expect(candidates.isError, candidates.text).not.toBe(true);
    const stored = candidates.value.items as Array<{ description: string; source: string; lint: unknown[] }>;
    expect(stored.map((c) => c.source)).toEqual(['model:sampling/stand-in-model', 'model:sampling/stand-in-model']);
    expect(stored.every((c) => c.lint.length === 0)).toBe(true);

    const before = seen.length;
    const evaluation = await call(admin, 'run_evaluation', { server: 'everything', tool: 'get-sum', backend: 'sampling', repeats: 1 });
    expect(evaluation.isError, evaluation.text).not.toBe(true);
    expect(evaluation.value.runs as number).toBeGreaterThan(0);
    const selections = seen.slice(before);
    expect(selections.length).toBe(evaluation.value.runs);
    // Every selection saw the server's whole list; some saw each candidate's text in place of the canonical one.
    for (const params of selections) expect(params.tools!.length).toBeGreaterThan(5);
    for (const candidate of stored) {
      expect(selections.some((p) => p.tools!.some((t) => t.description === candidate.description))).toBe(true);
    }
    const results = await call(admin, 'get_eval_results', { server: 'everything', tool: 'get-sum' });
    expect(results.isError, results.text).not.toBe(true);
    expect(results.text).toContain('canonical');
    // The rule decided on each model-written candidate from the runs the client's model made.
    const decided = (results.value.decision as { candidates: Array<{ candidateId: string; conditions: unknown[] }> }).candidates;
    expect(decided.map((c) => c.candidateId).sort()).toEqual(stored.map((c) => (c as unknown as { id: string }).id).sort());
    for (const c of decided) expect(c.conditions.length).toBeGreaterThan(0);
  }, 180_000);

  it('refuses clearly when the client cannot select tools through sampling, or has no sampling at all', async () => {
    const gw = await startHttpGateway(await writeConfig({ everything: npmServer('everything') }), ['--enable-optimization']);
    cleanup.push(() => gw.close());
    const textOnly = newClient({ sampling: {} });
    textOnly.setRequestHandler('sampling/createMessage', standInModel([]) as never);
    const a = await connectHttp(gw.url, textOnly, '/gateway/mcp');
    const b = await connectHttp(gw.url, undefined, '/gateway/mcp');
    cleanup.push(() => a.close(), () => b.close());
    await call(a, 'save_golden_prompts', { server: 'everything', prompts: [{ tool: 'get-sum', category: 'direct', prompt: 'add 2 and 3 together' }] });
    expect((await call(a, 'propose_candidate', { server: 'everything', tool: 'get-sum', description: 'Adds two numbers and returns the sum.' })).value.accepted).toBe(true);

    const noTools = await call(a, 'run_evaluation', { server: 'everything', tool: 'get-sum', backend: 'sampling', repeats: 1 });
    expect(noTools.isError).toBe(true);
    expect(noTools.text).toContain('sampling without tools');
    // Text generation needs sampling only.
    const written = await call(a, 'generate_golden_prompts', { server: 'everything', tool: 'get-sum', backend: 'sampling', perCategory: 1 });
    expect(written.isError, written.text).not.toBe(true);

    const none = await call(b, 'generate_candidates', { server: 'everything', tool: 'get-sum', backend: 'sampling' });
    expect(none.isError).toBe(true);
    expect(none.text).toContain('does not declare the sampling capability');
    const offline = await call(b, 'generate_golden_prompts', { server: 'everything', tool: 'get-sum', backend: 'retrieval' });
    expect(offline.isError).toBe(true);
    expect(offline.text).toContain('does not generate text');
  }, 180_000);
});
