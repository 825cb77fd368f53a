// Stale detection at runtime: a running gateway serves a promoted description of a tool; the server then changes
// that tool (the raw fixture server re-reads its tools file and announces list_changed). The gateway logs a warning
// naming the server and tool, marks the promotion stale in the store, serves the server's own text again, and
// `switchboard optimize status` (another process) shows the promotion as STALE with the reason.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { connectHttp, fixtureServer, newClient, startHttpGateway, tempDir, waitFor, writeConfig, type ConnectedClient, type RunningGateway } from '../helpers/gateway.js';
import { runCli } from '../cli/run-cli.js';

const ECHO = { name: 'echo', description: 'Echoes its arguments back as JSON text.', inputSchema: { type: 'object', properties: { message: { type: 'string' } } } };
const OTHER = { name: 'other', description: 'Another tool that never changes.', inputSchema: { type: 'object', properties: {} } };
const PROMOTED = 'Echoes the given message back unchanged, as JSON text; for checking what a tool receives.';

const open: Array<ConnectedClient | RunningGateway> = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close().catch(() => undefined);
});

describe('a server changing a promoted tool', () => {
  it('marks the promotion stale: warn log naming server and tool, canonical text served again, STALE in optimize status', async () => {
    const dir = await tempDir('switchboard-stale-');
    const toolsFile = path.join(dir, 'tools.json');
    await writeFile(toolsFile, JSON.stringify([ECHO, OTHER]));
    const config = await writeConfig({ raw: fixtureServer('raw-server.ts', [], { RAW_TOOLS_FILE: toolsFile }) }, {}, dir);
    const cli = (...args: string[]) => runCli([...args, '--config', config, '--enable-optimization'], path.join(dir, 'data'));
    const gw = await startHttpGateway(config);
    open.push(gw);
    let changed = 0;
    const client = newClient();
    client.setNotificationHandler('notifications/tools/list_changed', () => void changed++);
    open.push(await connectHttp(gw.url, client));
    const echo = async () => (await client.listTools()).tools.find((t) => t.name === 'raw_echo');
    expect((await echo())?.description).toBe(ECHO.description); // listed: the canonical definition is captured

    const promoted = await cli('optimize', 'promote', 'raw', 'echo', '--description', PROMOTED, '--force');
    expect(promoted.code, promoted.stderr).toBe(0);
    await waitFor(async () => (await echo())?.description === PROMOTED, 'the promoted text on the client', 15_000);

    // The server runs (a call starts it if the boot-time listing stopped it), so it notices its file changing.
    await client.callTool({ name: 'raw_other', arguments: {} });
    const before = changed;
    await writeFile(toolsFile, JSON.stringify([{ ...ECHO, inputSchema: { type: 'object', properties: { message: { type: 'string' }, loud: { type: 'boolean' } } } }, OTHER]));
    await waitFor(() => changed > before, 'list_changed after the server changed echo');
    const now = await waitFor(async () => {
      const t = await echo();
      return t?.description === ECHO.description && t;
    }, 'the canonical text served again', 15_000);
    expect(Object.keys((now.inputSchema as { properties: object }).properties)).toEqual(['message', 'loud']);

    const warning = await waitFor(() => gw.log.records().find((r) => typeof r.msg === 'string' && r.msg.startsWith('promoted description is stale')), 'the stale warning in the log');
    expect(warning).toMatchObject({ level: 40, server: 'raw', tool: 'echo' });
    expect(warning.reason).toMatch(/^the server changed raw\.echo after the promotion \(hash [0-9a-f]{12} -> [0-9a-f]{12}\)/);
    expect(gw.log.records().filter((r) => r.msg === warning.msg)).toHaveLength(1); // said once, not on every listing

    const status = await cli('optimize', 'status', '--server', 'raw');
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toContain('raw.echo: promoted FORCED STALE');
    expect(status.stdout).toContain(`  ${warning.reason as string}`);
    expect(status.stdout).toContain('raw.other: canonical');
  }, 120_000);
});
