// The optimization admin API against a real gateway fronting real server-everything, with the offline retrieval
// backend: golden prompts saved, a run started through the API (its progress seen live on /api/optimize/events:
// phases, prompts tested per category, candidate n/m, ETA; then completed), the state per tool with rates before
// and after, the auto-promote threshold on top of the rule, revert, golden prompts with pass/fail, the exported
// report, cancelling, and the refusals (unknown server or backend, a second run, optimization off).
import { afterEach, describe, expect, it } from 'vitest';
import { npmServer, startHttpGateway, writeConfig, type RunningGateway } from '../helpers/gateway.js';
import { api, readEvents, type EventReader } from '../helpers/admin-api.js';
import { SUM_PROMPTS } from '../optimize/sum-prompts.js';
import type { RunProgress } from '../../src/optimize/server-run.js';
import type { ServerState } from '../../src/optimize/state.js';

const open: Array<RunningGateway | EventReader> = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
});

const finished = (id: string) => (e: { type: string; data: unknown }) => e.type === 'run' && (e.data as RunProgress).id === id && (e.data as RunProgress).state !== 'running';

describe('optimization routes', () => {
  it('runs a retrieval optimization through the API with live progress, then shows, reverts and reports it', async () => {
    const config = await writeConfig({ everything: npmServer('everything') }, { http: { unauthenticatedAdmin: true }, optimization: { enabled: true } });
    const gateway = await startHttpGateway(config);
    open.push(gateway);
    const saved = await api(gateway.url, 'POST', '/api/optimize/prompts', { server: 'everything', prompts: SUM_PROMPTS });
    expect(saved.status, JSON.stringify(saved.body)).toBe(201);
    expect(saved.body.saved).toBe(SUM_PROMPTS.length);

    const events = await readEvents(gateway.url, '/api/optimize/events');
    open.push(events);
    // No auto-promotion (threshold null): the rule passes a candidate, nothing is promoted.
    const strict = await api<{ run: RunProgress }>(gateway.url, 'POST', '/api/optimize/runs', { servers: ['everything'], tools: ['get-sum', 'get-env'], candidates: 2, backend: 'retrieval', autoPromoteThreshold: null });
    expect(strict.status, JSON.stringify(strict.body)).toBe(202);
    const first = (await events.next(finished(strict.body.run.id), 'the first run to finish', 60_000)).data as RunProgress;
    expect(first.state, first.error).toBe('completed');
    const sumOutcome = first.outcomes.find((o) => o.tool === 'get-sum')!;
    expect(sumOutcome.passing).toBeDefined();
    expect(sumOutcome.promoted).toBeUndefined();
    expect(sumOutcome.overallRate).toBeGreaterThanOrEqual(0.85);
    expect(first.outcomes.find((o) => o.tool === 'get-env')).toEqual({ server: 'everything', tool: 'get-env', skipped: 'no golden prompts' });
    const progress = events.events.filter((e) => e.type === 'run').map((e) => e.data as RunProgress);
    expect(progress.map((p) => p.phase)).toEqual(expect.arrayContaining(['generating', 'evaluating', 'deciding', 'done']));
    const evaluating = progress.filter((p) => p.phase === 'evaluating' && p.done > 0);
    expect(evaluating.length).toBeGreaterThan(0);
    const last = evaluating[evaluating.length - 1];
    expect(last).toMatchObject({ tool: 'get-sum', server: 'everything' });
    expect(last.done).toBe(last.total);
    expect(last.candidate!.m).toBeGreaterThan(0);
    expect(last.promptsTested!.direct + last.promptsTested!.indirect + last.promptsTested!.negative).toBeGreaterThan(0);
    expect(evaluating.every((p) => typeof p.etaMs === 'number')).toBe(true);

    // Default threshold (85 %): the passing candidate is promoted.
    const run = await api<{ run: RunProgress }>(gateway.url, 'POST', '/api/optimize/runs', { servers: ['everything'], tools: ['get-sum'], candidates: 2 });
    expect(run.status).toBe(202);
    const second = (await events.next(finished(run.body.run.id), 'the second run to finish', 60_000)).data as RunProgress;
    expect(second.state, second.error).toBe('completed');
    expect(second.outcomes[0].promoted).toBe(second.outcomes[0].passing);
    expect(events.events.some((e) => e.type === 'decision' && (e.data as { promoted: boolean }).promoted)).toBe(true);

    const state = await api<{ servers: ServerState[]; run: RunProgress; backends: string[]; defaults: { autoPromoteThreshold: number } }>(gateway.url, 'GET', '/api/optimize');
    expect(state.body.backends).toContain('retrieval');
    expect(state.body.defaults.autoPromoteThreshold).toBe(0.85);
    expect(state.body.run.id).toBe(run.body.run.id);
    const everything = state.body.servers[0];
    expect(everything.optimized).toBe(1);
    expect(everything.total).toBeGreaterThan(5);
    const sum = everything.tools.find((t) => t.tool === 'get-sum')!;
    expect(sum.optimized).toBe(true);
    expect(sum.enabled).toBe(true);
    expect(sum.canonical.chars).toBe(sum.canonical.text.length);
    expect(sum.promoted!.text).toMatch(/total/);
    expect(sum.promoted!.chars).toBeGreaterThan(sum.canonical.chars);
    expect(sum.prompts).toMatchObject({ direct: 6, indirect: 6, negative: 6 });
    const categories = sum.evaluation!.categories.map((c) => c.category);
    expect(categories).toEqual(expect.arrayContaining(['direct', 'indirect', 'negative', 'overall']));
    const direct = sum.evaluation!.categories.find((c) => c.category === 'direct')!;
    expect(direct.after!.rate).toBeGreaterThan(direct.before.rate);
    expect(direct.before.low).toBeLessThanOrEqual(direct.before.rate);
    expect(everything.tools.find((t) => t.tool === 'echo')!.optimized).toBe(false);

    const prompts = await api<{ tools: Array<{ tool: string; prompts: Array<{ category: string; canonical: string; candidate?: string; passed?: boolean; expectedBehavior: { shouldCallTool: boolean } }>; rates: Record<string, number> }> }>(gateway.url, 'GET', '/api/optimize/prompts?server=everything&tool=get-sum');
    expect(prompts.status).toBe(200);
    const golden = prompts.body.tools[0];
    expect(golden.tool).toBe('get-sum');
    expect(golden.prompts.filter((p) => p.category === 'negative').every((p) => p.expectedBehavior.shouldCallTool === false)).toBe(true);
    expect(golden.prompts.filter((p) => p.passed !== undefined).length).toBeGreaterThan(0);
    expect(golden.rates.direct).toBeGreaterThan(0);

    const report = await api<string>(gateway.url, 'GET', '/api/optimize/report?server=everything');
    expect(report.body).toContain('## everything.get-sum');
    expect(report.body).toContain(`Promoted: ${sum.promoted!.text}`);
    const json = await api<{ tools: Array<{ tool: string }> }>(gateway.url, 'GET', '/api/optimize/report?format=json');
    expect(json.body.tools.some((t) => t.tool === 'get-sum')).toBe(true);
    expect((await api(gateway.url, 'GET', '/api/optimize/report?format=pdf')).status).toBe(400);

    const reverted = await api(gateway.url, 'POST', '/api/optimize/revert', { server: 'everything', tool: 'get-sum' });
    expect(reverted.body).toEqual({ server: 'everything', reverted: ['get-sum'] });
    const afterRevert = await api<{ servers: ServerState[] }>(gateway.url, 'GET', '/api/optimize?server=everything');
    expect(afterRevert.body.servers[0].optimized).toBe(0);

    // Refusals name what is wrong.
    expect((await api(gateway.url, 'POST', '/api/optimize/runs', { servers: ['nope'] })).status).toBe(404);
    const badBackend = await api(gateway.url, 'POST', '/api/optimize/runs', { backend: 'gpt-9' });
    expect(badBackend.status).toBe(400);
    expect(badBackend.body.error).toContain('Usable here: retrieval');
    expect((await api(gateway.url, 'POST', '/api/optimize/runs', { candidates: 0 })).status).toBe(400);
    expect((await api(gateway.url, 'GET', '/api/optimize/prompts')).status).toBe(400);

    // Cancel: a run over every tool, cancelled at once; a second run meanwhile is refused; after it, nothing to cancel.
    const long = await api<{ run: RunProgress }>(gateway.url, 'POST', '/api/optimize/runs', { servers: ['everything'], candidates: 4 });
    expect(long.status).toBe(202);
    const conflict = await api(gateway.url, 'POST', '/api/optimize/runs', {});
    const cancel = await api(gateway.url, 'DELETE', '/api/optimize/runs/current');
    const ended = (await events.next(finished(long.body.run.id), 'the cancelled run to end', 60_000)).data as RunProgress;
    if (cancel.status === 200) {
      expect(ended.state).toBe('cancelled');
      expect(conflict.status).toBe(409);
    } else {
      expect(ended.state).toBe('completed'); // it finished before the cancel arrived
    }
    expect((await api(gateway.url, 'DELETE', '/api/optimize/runs/current')).status).toBe(404);
  }, 90_000);

  it('answers 404 with how to enable it when optimization is off', async () => {
    const config = await writeConfig({ everything: npmServer('everything') }, { http: { unauthenticatedAdmin: true } });
    const gateway = await startHttpGateway(config);
    open.push(gateway);
    const answer = await api(gateway.url, 'GET', '/api/optimize');
    expect(answer.status).toBe(404);
    expect(answer.body.error).toContain('--enable-optimization');
    expect((await api(gateway.url, 'POST', '/api/optimize/runs', {})).status).toBe(404);
  }, 30_000);
});
