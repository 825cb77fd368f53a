// The terminal UI's Search and Optimization views and their modals (ink-testing-library), against a real HTTP
// gateway fronting real server-everything with the offline retrieval backend: ranked search results with scores and
// mode, token bars, golden prompts with pass/fail, an optimization started from Optimize Tools with its progress
// panel and completion notice, Detail with revert, export, batch optimize and the command menu.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { npmServer, startHttpGateway, tempDir, writeConfig, type RunningGateway } from '../helpers/gateway.js';
import { api } from '../helpers/admin-api.js';
import { KEYS, renderTui, type RenderedTui } from '../helpers/tui.js';
import { SUM_PROMPTS } from '../optimize/sum-prompts.js';

const open: Array<RunningGateway | RenderedTui> = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) 'unmount' in o ? o.unmount() : await o.close().catch(() => undefined);
});

/** Moves the selection down until the selected line shows `text`. */
async function select(tui: RenderedTui, text: RegExp): Promise<void> {
  for (let i = 0; i < 40; i++) {
    const selected = tui.frame().split('\n').find((line) => line.includes('›')) ?? '';
    if (text.test(selected)) return;
    tui.press(KEYS.down);
    await tui.until((f) => (f.split('\n').find((line) => line.includes('›')) ?? '') !== selected);
  }
  throw new Error(`no line matching ${text} could be selected:\n${tui.frame()}`);
}

describe('TUI: search and optimization', () => {
  it('searches, optimizes a tool with retrieval and shows its detail, prompts, export, batch and the command menu', async () => {
    const config = await writeConfig({ everything: npmServer('everything') }, { http: { unauthenticatedAdmin: true }, optimization: { enabled: true } });
    const gateway = await startHttpGateway(config);
    open.push(gateway);
    expect((await api(gateway.url, 'POST', '/api/optimize/prompts', { server: 'everything', prompts: SUM_PROMPTS })).status).toBe(201);
    const exportDir = await tempDir();
    const tui = renderTui(gateway.url, { exportDir });
    open.push(tui);
    await tui.until('servers 1');

    // Search: typed in place, ranked with scores and the mode; the token report as bars.
    tui.press('/');
    await tui.until('Search: ▏');
    tui.press('sum of two numbers');
    let frame = await tui.until(/everything_get-sum\s+█+░*\s+\d+\.\d{3}/, 30_000);
    expect(frame).toMatch(/mode (lexical|hybrid|semantic)/);
    frame = await tui.until(/passthrough\s+█+░*\s+\d+ tok\s+13 tools/);
    expect(frame).toMatch(/meta\s+█+░*\s+\d+ tok\s+3 tools/);
    tui.press(KEYS.escape);
    await tui.until('r restart');

    // Optimization: per server dots and n/m, per tool "Not optimized".
    tui.press('o');
    frame = await tui.until('○○○○○ 0/13 tools optimized', 30_000);
    expect(frame).toMatch(/○ echo\s+Not optimized/);
    await select(tui, /get-sum/);

    // p: Golden Prompts per category, not evaluated yet.
    tui.press('p');
    frame = await tui.until('direct (6)');
    expect(frame).toContain('add 12 and 30, what is the total');
    tui.press(KEYS.escape);
    await tui.until('d detail');

    // o: Optimize Tools for the selected tool, Start with Enter; the run's panel and the completion notice.
    tui.press('o');
    frame = await tui.until('Optimize Tools: everything');
    expect(frame).toContain('Selected: 1/13 tools');
    expect(frame).toMatch(/Auto-promote threshold\s+◂ ≥ 85% overall ▸/);
    expect(frame).toMatch(/Backend\s+◂ retrieval ▸/);
    tui.press(KEYS.enter);
    frame = await tui.until(/Optimization completed: 1 tool\(s\) done, 1 promoted/, 60_000);
    frame = await tui.until(/Run completed · done[\s\S]*█+ \d+\/\d+ 100%/);
    await tui.until(/● get-sum\s+dir \d+%→100%/);
    frame = await tui.until('optimized: everything (1/13 tools)');
    expect(frame).toMatch(/● get-sum/);

    // d: Detail with canonical and promoted text, before → after per category; r reverts.
    tui.press('d');
    frame = await tui.until('Detail: everything.get-sum');
    expect(frame).toContain('Canonical (30 chars)');
    expect(frame).toMatch(/Promoted \(\d+ chars\)/);
    expect(frame).toMatch(/direct\s+\d+% \[\d+%–\d+%\]\s+→ 100% \[\d+%–100%\]/);
    tui.press('p');
    tui.press(KEYS.escape);
    await tui.until('d detail');
    tui.press('p');
    frame = await tui.until(/success \d+%/);
    expect(frame).toMatch(/✓ /);
    tui.press(KEYS.escape);
    await tui.until('d detail');
    tui.press('d');
    await tui.until('r Revert');
    tui.press('r');
    await tui.until('everything.get-sum reverted to its canonical description');
    await tui.until(/○ get-sum/);

    // Ctrl+E: the report written to a file.
    tui.press(KEYS.ctrl('e'));
    await tui.until('Report written to');
    const file = path.join(exportDir, 'switchboard-optimization.md');
    expect(existsSync(file)).toBe(true);
    expect(readFileSync(file, 'utf8')).toContain('## everything.get-sum');
    tui.press(KEYS.escape);
    await tui.until('d detail');

    // Ctrl+O: Batch optimize with the tool count and an estimate (cancelled).
    tui.press(KEYS.ctrl('o'));
    frame = await tui.until('Batch optimize: every server');
    expect(frame).toMatch(/1 server\(s\), 13 tools; 2 have golden prompts/);
    expect(frame).toMatch(/Estimate: about \d+ evaluations with retrieval/);
    tui.press(KEYS.escape);
    await tui.until('d detail');

    // Ctrl+K: the command menu, grouped, narrowed by a fuzzy query; Enter runs the action.
    tui.press(KEYS.ctrl('k'));
    frame = await tui.until('Commands');
    for (const group of ['Server Management', 'Activity', 'Optimization', 'Help']) expect(frame).toContain(group);
    tui.press('actlog');
    frame = await tui.until((f) => f.includes('Activity Log') && !f.includes('Add Server'));
    tui.press(KEYS.enter);
    await tui.until('^L clear');
  }, 60_000);
});
