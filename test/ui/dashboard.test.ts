// The web dashboard in a real browser (Debian's Chromium driven by playwright-core, headless, no browser
// download) against the real HTTP gateway fronting real npm servers: every view renders real data;
// Configure Tools by clicking changes tools/list for a connected SDK client; creating and equipping a
// toolset by clicking changes the tools of a toolset-mode client; the live Activity view shows a call an
// MCP client makes; a gateway that requires tokens gets one through the dashboard's prompt.
// Screenshots go to test-results/ui/ (CI artifacts; the README shows copies from docs/images/).
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { connectHttp, npmServer, REPO, startHttpGateway, waitFor, writeConfig, type ConnectedClient, type RunningGateway } from '../helpers/gateway.js';
import { hashToken, newToken } from '../../src/http/tokens.js';
import { api } from '../helpers/admin-api.js';
import { SUM_PROMPTS } from '../optimize/sum-prompts.js';

const CHROMIUM = '/usr/bin/chromium';
const SHOTS = path.join(REPO, 'test-results/ui');

function requireChromium(): void {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium is missing at ${CHROMIUM}: the dashboard tests drive Debian's Chromium. Install it with "apt-get install chromium".`);
  if (!existsSync(path.join(REPO, 'dist/ui/index.html'))) throw new Error('dist/ui/index.html is missing: build the dashboard first with "npm run build".');
}

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: false });
}

async function toolNames(client: ConnectedClient): Promise<string[]> {
  return (await client.client.listTools()).tools.map((t) => t.name);
}

describe('web dashboard', () => {
  let browser: Browser;
  let gateway: RunningGateway;
  let client: ConnectedClient;
  let page: Page;
  /** A second gateway that requires client tokens (started alongside the first). */
  let guarded: RunningGateway;
  const token = newToken();

  beforeAll(async () => {
    requireChromium();
    await mkdir(SHOTS, { recursive: true });
    const config = await writeConfig({ everything: npmServer('everything'), memory: npmServer('memory', [], { MEMORY_FILE_PATH: path.join(SHOTS, '..', 'ui-memory.jsonl') }) }, { http: { unauthenticatedAdmin: true }, optimization: { enabled: true } });
    const guardedConfig = await writeConfig({ memory: npmServer('memory') }, { clients: [{ name: 'dashboard', tokenHash: hashToken(token), admin: true }] });
    [browser, gateway, guarded] = await Promise.all([
      chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] }),
      startHttpGateway(config),
      startHttpGateway(guardedConfig),
    ]);
    client = await connectHttp(gateway.url);
    const saved = await api(gateway.url, 'POST', '/api/optimize/prompts', { server: 'everything', prompts: SUM_PROMPTS });
    expect(saved.status, JSON.stringify(saved.body)).toBe(201);
    // Real calls, a failing one among them, so statistics, charts and sparklines have data.
    for (let i = 0; i < 4; i++) await client.client.callTool({ name: 'everything_echo', arguments: { message: `hello ${i}` } });
    await client.client.callTool({ name: 'everything_get-sum', arguments: { a: 2, b: 3 } });
    await client.client.callTool({ name: 'memory_read_graph', arguments: {} });
    await client.client.callTool({ name: 'everything_get-sum', arguments: { a: 'not a number' } });
    // Calls reach SQLite through the journal: wait until the store has them.
    await waitFor(async () => {
      const stats = (await (await fetch(`${gateway.url}/api/metrics`)).json()) as { tools: Array<{ tool: string; calls: number }> };
      return stats.tools.find((t) => t.tool === 'echo')?.calls === 4 && stats.tools.some((t) => t.tool === 'get-sum' && t.calls === 2);
    }, 'the calls to be stored', 30_000);
    page = await browser.newPage({ viewport: { width: 1360, height: 860 } });
  });

  afterAll(async () => {
    await client?.close().catch(() => undefined);
    await browser?.close();
    await gateway?.close();
    await guarded?.close();
  });

  it('Servers: each server with its state and tools; Configure Tools by clicking changes tools/list for a connected client', async () => {
    await page.goto(`${gateway.url}/`);
    expect(page.url()).toBe(`${gateway.url}/ui/`);
    const memoryRow = page.locator('tr[data-server="memory"]');
    await memoryRow.locator('[data-testid="tool-count"]', { hasText: '9/9' }).waitFor();
    await page.locator('tr[data-server="everything"] [data-testid="tool-count"]', { hasText: /^\d+\/\d+$/ }).waitFor();
    await shot(page, 'servers');

    expect(await toolNames(client)).toContain('memory_delete_entities');
    await memoryRow.getByRole('button', { name: 'Configure tools' }).click();
    const dialog = page.getByRole('dialog', { name: 'Configure tools: memory' });
    await dialog.getByText('Selected: 9/9 tools').waitFor();
    await dialog.locator('input[name="delete_entities"]').uncheck();
    await dialog.locator('input[name="delete_relations"]').uncheck();
    await dialog.getByText('Selected: 7/9 tools').waitFor();
    await shot(page, 'configure-tools');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });

    const names = await waitFor(async () => {
      const list = await toolNames(client);
      return !list.includes('memory_delete_entities') && list.includes('memory_read_graph') ? list : undefined;
    }, 'tools/list without the unchecked tools', 30_000);
    expect(names).not.toContain('memory_delete_relations');
    await memoryRow.locator('[data-testid="tool-count"]', { hasText: '7/9' }).waitFor({ timeout: 30_000 });

    // Restart by clicking: the restart is counted.
    const everythingRow = page.locator('tr[data-server="everything"]');
    await everythingRow.getByRole('button', { name: 'Restart' }).click();
    await everythingRow.locator('td', { hasText: /^1$/ }).waitFor({ timeout: 30_000 });

    // Add Server: a stdio command with arguments and env, picked up live.
    await page.getByRole('button', { name: 'Add server' }).click();
    const add = page.getByRole('dialog', { name: 'Add server' });
    await add.locator('input[name="server-key"]').fill('notes');
    await add.locator('input[name="server-command"]').fill(process.execPath);
    await add.locator('textarea[name="server-args"]').fill(npmServer('memory').args.join('\n'));
    await add.locator('textarea[name="server-env"]').fill(`MEMORY_FILE_PATH=${path.join(SHOTS, '..', 'ui-notes.jsonl')}`);
    await shot(page, 'add-server');
    await add.getByRole('button', { name: 'Add server' }).click();
    await add.waitFor({ state: 'detached' });
    // Its tools open in Configure Tools once discovered, all selected.
    const discovered = page.getByRole('dialog', { name: 'Configure tools: notes' });
    await discovered.getByText('Selected: 9/9 tools').waitFor({ timeout: 30_000 });
    await discovered.getByRole('button', { name: 'Cancel' }).click();
    await page.locator('tr[data-server="notes"] [data-testid="tool-count"]', { hasText: '9/9' }).waitFor({ timeout: 30_000 });
    await waitFor(async () => (await toolNames(client)).includes('notes_read_graph'), 'the added server in tools/list', 30_000);
  });

  it('Tools: the real index with statistics and sparklines, search ranking, and a drawer with the schema', async () => {
    await page.goto(`${gateway.url}/ui/#/tools`);
    const echo = page.locator('tr[data-tool="everything_echo"]');
    await echo.waitFor();
    const cells = await echo.locator('td').allInnerTexts();
    expect(cells.join(' ')).toContain('original: echo');
    expect(cells[3]).toBe('4'); // calls
    expect(cells[4]).toBe('100 %');
    expect(await echo.locator('svg.sparkline').count()).toBe(1);
    const sum = page.locator('tr[data-tool="everything_get-sum"]');
    expect((await sum.locator('td').allInnerTexts())[4]).toBe('50.0 %');
    // A tool hidden on the Servers view is still listed, marked hidden.
    await page.locator('tr[data-tool="memory.delete_entities"]', { hasText: 'hidden' }).waitFor();

    // Sorting by a column: the most called tool first.
    await page.getByRole('button', { name: 'Calls' }).click();
    expect(await page.locator('[data-testid="tools-table"] tbody tr').first().getAttribute('data-tool')).toBe('everything_echo');
    await page.getByRole('button', { name: 'Calls ↓' }).waitFor();

    // The token report per mode, from /api/tokens.
    const bars = page.getByTestId('token-bars');
    await bars.getByText('passthrough').waitFor();
    expect(await bars.innerText()).toMatch(/meta\s+[\d,]+ tokens · 3 tools/);

    await page.getByRole('searchbox', { name: 'Search tools' }).fill('echo back a message');
    await page.locator('th', { hasText: 'Score' }).waitFor();
    const first = page.locator('[data-testid="tools-table"] tbody tr').first();
    expect(await first.getAttribute('data-tool')).toBe('everything_echo');
    await shot(page, 'tools');

    await first.click();
    const drawer = page.getByRole('dialog', { name: 'everything_echo' });
    await drawer.getByTestId('tool-schema').waitFor();
    expect(await drawer.getByTestId('tool-schema').innerText()).toContain('"message"');
    await shot(page, 'tool-drawer');
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'detached' });
  });

  it('Toolsets: create one from the tool picker, equip it by clicking, and a toolset-mode client gets its tools', async () => {
    const follower = await connectHttp(gateway.url, undefined, '/mcp?mode=toolset');
    try {
      expect(await toolNames(follower)).not.toContain('everything_echo');
      await page.goto(`${gateway.url}/ui/#/toolsets`);
      await page.getByRole('button', { name: 'New toolset' }).click();
      const dialog = page.getByRole('dialog', { name: 'New toolset' });
      await dialog.locator('input[name="toolset-name"]').fill('daily');
      await dialog.locator('input[name="toolset-description"]').fill('echo and sums');
      await dialog.locator('input[name="everything.echo"]').check();
      await dialog.locator('input[name="everything.get-sum"]').check();
      await dialog.getByRole('button', { name: 'Create' }).click();
      await dialog.waitFor({ state: 'detached' });

      const card = page.locator('[data-toolset="daily"]');
      await card.getByText(`${gateway.url}/toolsets/daily/mcp`).waitFor();
      await card.getByRole('button', { name: 'Equip' }).click();
      await card.getByText('equipped').waitFor();
      await shot(page, 'toolsets');
      const names = await waitFor(async () => {
        const list = await toolNames(follower);
        return list.includes('everything_echo') && list.includes('everything_get-sum') ? list : undefined;
      }, 'the toolset-mode client to get the equipped tools', 30_000);
      expect(names).not.toContain('memory_read_graph');
    } finally {
      await follower.close();
    }
  });

  it('Metrics: calls, errors and latency charts from the store', async () => {
    await page.goto(`${gateway.url}/ui/#/metrics`);
    await page.getByTestId('metrics-summary').waitFor();
    expect(await page.getByTestId('metrics-summary').innerText()).toMatch(/^\d+ calls, \d+ failed/);
    // The charts draw after the summary shows (one render later): wait for the fourth before counting.
    await page.locator('.chart canvas').nth(3).waitFor();
    expect(await page.locator('.chart canvas').count()).toBe(4);
    await page.getByRole('combobox', { name: 'Group by' }).selectOption('tool');
    await page.locator('.u-legend', { hasText: 'everything.echo' }).first().waitFor();
    await shot(page, 'metrics');
  });

  it('Activity: a call made by an MCP client shows up live', async () => {
    await page.goto(`${gateway.url}/ui/#/activity`);
    await page.getByTestId('stream-state').getByText('live').waitFor();
    const table = page.getByTestId('activity-table');
    await table.waitFor(); // the recent calls are replayed on connect
    const before = await table.locator('tr', { hasText: 'get-tiny-image' }).count();
    await client.client.callTool({ name: 'everything_get-tiny-image', arguments: {} });
    await waitFor(async () => (await table.locator('tr', { hasText: 'get-tiny-image' }).count()) === before + 1, 'the live call in the activity table');
    const row = table.locator('tr', { hasText: 'get-tiny-image' }).first();
    expect(await row.innerText()).toContain('everything');
    expect(await row.innerText()).toContain('ok');
    await shot(page, 'activity');
  });

  it('Optimization: start a run by clicking, watch its progress, see before → after, revert', async () => {
    await page.goto(`${gateway.url}/ui/#/optimization`);
    const server = page.locator('.opt-server[data-server="everything"]');
    await server.getByText(/0\/\d+ tools optimized/).waitFor();
    await server.getByRole('button', { name: 'Optimize tools…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Optimize tools: everything' });
    expect(await dialog.locator('input[name="get-sum"]').isChecked()).toBe(true);
    await dialog.locator('label', { hasText: 'Candidates per tool' }).locator('input').fill('2');
    await dialog.getByRole('button', { name: 'Start' }).click();
    await dialog.waitFor({ state: 'detached' });
    const run = page.getByTestId('optimize-run');
    await run.waitFor();
    await page.locator('[data-testid="optimize-run"][data-state="completed"]').waitFor({ timeout: 90_000 });
    expect(await run.innerText()).toContain('everything.get-sum');
    await server.getByText(/1\/\d+ tools optimized/).waitFor();

    const row = server.locator('tr[data-tool="get-sum"]');
    expect(await row.innerText()).toContain('optimized');
    await row.click();
    const detail = page.getByTestId('optimize-detail');
    await detail.getByText('Success per category, before → after').waitFor();
    await detail.getByText('add 12 and 30, what is the total').waitFor();
    await shot(page, 'optimization');
    // The promoted text is what clients see now.
    const listed = (await client.client.listTools()).tools.find((t) => t.name === 'everything_get-sum')!;
    const promoted = await detail.locator('pre.text').nth(1).innerText();
    expect(listed.description).toBe(promoted);

    await detail.getByRole('button', { name: 'Revert' }).click();
    await server.getByText(/0\/\d+ tools optimized/).waitFor();
  });

  it('asks for a token when the gateway requires one, then shows the data', async () => {
    const tab = await browser.newPage({ viewport: { width: 1200, height: 700 } });
    try {
      await tab.goto(`${guarded.url}/ui/`);
      const prompt = tab.getByRole('dialog', { name: 'Token required' });
      await prompt.getByText('requires a client token').waitFor();
      await shot(tab, 'token-prompt');
      await prompt.locator('input[name="token"]').fill(token);
      await prompt.getByRole('button', { name: 'Save token' }).click();
      await tab.locator('tr[data-server="memory"]').waitFor();
      expect(await tab.evaluate(() => localStorage.getItem('switchboard.token'))).toBe(token);
      // Reloading keeps the token: no prompt, data at once.
      await tab.reload();
      await tab.locator('tr[data-server="memory"]').waitFor();
      expect(await tab.getByRole('dialog', { name: 'Token required' }).count()).toBe(0);
    } finally {
      await tab.close();
    }
  });
});
