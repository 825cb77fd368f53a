// Description overrides and promotions on every face a real client uses (aggregate /mcp, the per-server endpoint,
// a fixed-toolset endpoint, stdio in meta mode through tool_discovery), live config edits with list_changed,
// promotions surviving a restart, revert, and only `description` ever differing. Real gateway, real
// server-everything, real SQLite file.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { connectHttp, connectStdio, npmServer, startHttpGateway, waitFor, writeConfig, type ConnectedClient, type RunningGateway } from '../helpers/gateway.js';
import { runCli } from '../cli/run-cli.js';

const OVERRIDE = 'Echoes the given message back unchanged; handy to test zebrafish connectivity.';
const PROMOTED = 'Adds two numbers a and b and returns their sum, for quick arithmetic like totals of quokka counts.';

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn().catch(() => undefined);
});

async function gateway(config: string, args: string[] = []): Promise<RunningGateway> {
  const gw = await startHttpGateway(config, args);
  cleanup.push(() => gw.close());
  return gw;
}

async function client(url: string, endpoint: string): Promise<ConnectedClient> {
  const c = await connectHttp(url, undefined, endpoint);
  cleanup.push(() => c.close());
  return c;
}

async function describe_(c: ConnectedClient, name: string): Promise<Record<string, unknown>> {
  const { tools } = await c.client.listTools();
  const tool = tools.find((t) => t.name === name);
  if (!tool) throw new Error(`no tool ${name} in ${tools.map((t) => t.name).join(', ')}`);
  return tool as unknown as Record<string, unknown>;
}

function stored(dataDir: string, server: string, tool: string): Record<string, unknown> {
  const db = new Database(path.join(dataDir, 'switchboard.db'), { readonly: true });
  try {
    const row = db.prepare('SELECT definition FROM optimize_canonical_tools WHERE server = ? AND tool = ?').get(server, tool) as { definition: string };
    return JSON.parse(row.definition) as Record<string, unknown>;
  } finally {
    db.close();
  }
}

describe('description overrides and promotions on every face', () => {
  it('apply everywhere, change only the description, follow live edits, survive restarts, and revert', async () => {
    const config = await writeConfig({ everything: npmServer('everything') }, { descriptions: { everything: { echo: OVERRIDE } } });
    const dataDir = path.join(path.dirname(config), 'data');
    const cli = (...args: string[]) => runCli([...args, '--config', config], dataDir);
    expect((await cli('toolset', 'create', 'pair', 'everything.echo', 'everything.get-sum')).code).toBe(0);

    // 1. The settings' override, on the aggregate, per-server and fixed-toolset endpoints.
    let gw = await gateway(config);
    const aggregate = await client(gw.url, '/mcp');
    const single = await client(gw.url, '/servers/everything/mcp');
    const toolset = await client(gw.url, '/toolsets/pair/mcp');
    expect((await describe_(aggregate, 'everything_echo')).description).toBe(OVERRIDE);
    const echo = await describe_(single, 'echo');
    expect(echo.description).toBe(OVERRIDE);
    expect((await describe_(toolset, 'everything_echo')).description).toBe(OVERRIDE);

    // Only the description differs from what the server listed (captured canonical definition).
    const canonical = stored(dataDir, 'everything', 'echo');
    expect(canonical.description).not.toBe(OVERRIDE);
    const { description: _a, ...restShown } = echo;
    const { description: _b, ...restCanonical } = canonical;
    expect(restShown).toEqual(restCanonical);

    // 2. A live edit of the settings: clients hear list_changed and see the new text.
    let changed = 0;
    aggregate.client.setNotificationHandler('notifications/tools/list_changed', () => void changed++);
    const file = JSON.parse(await readFile(config, 'utf8'));
    file.switchboard.descriptions.everything.echo = `${OVERRIDE} Edited.`;
    await writeFile(config, JSON.stringify(file, null, 2));
    // Other list changes (a server's own, a connection released) may come first: wait for the text itself.
    await waitFor(async () => (await describe_(aggregate, 'everything_echo')).description === `${OVERRIDE} Edited.`, 'the edited description to be served');
    await waitFor(() => changed > 0, 'tools/list_changed after editing descriptions');
    await gw.close();

    // 3. A promotion (forced: no evaluation here), made while the gateway is down, shows after the restart on
    //    every face, including stdio in meta mode where the search index finds the tool by the promoted words.
    const refused = await cli('optimize', 'promote', 'everything', 'get-sum', '--description', PROMOTED, '--enable-optimization');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('refused: significance: a text without a candidate has no evaluation');
    const forced = await cli('optimize', 'promote', 'everything', 'get-sum', '--description', PROMOTED, '--force', '--enable-optimization');
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stdout).toContain('(FORCED)');

    gw = await gateway(config);
    expect((await describe_(await client(gw.url, '/mcp'), 'everything_get-sum')).description).toBe(PROMOTED);
    expect((await describe_(await client(gw.url, '/servers/everything/mcp'), 'get-sum')).description).toBe(PROMOTED);
    expect((await describe_(await client(gw.url, '/toolsets/pair/mcp'), 'everything_get-sum')).description).toBe(PROMOTED);
    const meta = await connectStdio(config, undefined, ['--mode', 'meta']);
    cleanup.push(() => meta.close());
    const found = await meta.client.callTool({ name: 'tool_discovery', arguments: { query: 'quokka counts' } });
    const text = JSON.stringify(found.content);
    expect(text).toContain('everything_get-sum');
    expect(text).toContain('quokka');
    const status = await cli('optimize', 'status', '--server', 'everything');
    expect(status.stdout).toContain('everything.get-sum: promoted FORCED');
    await gw.close();
    await meta.close();

    // 4. Revert restores the canonical text (after the next start).
    const reverted = await cli('optimize', 'revert', 'everything', '--tools', 'get-sum');
    expect(reverted.stdout).toContain('canonical description restored for get-sum');
    gw = await gateway(config);
    const after = await describe_(await client(gw.url, '/mcp'), 'everything_get-sum');
    expect(after.description).toBe(stored(dataDir, 'everything', 'get-sum').description);
  }, 180_000);
});
