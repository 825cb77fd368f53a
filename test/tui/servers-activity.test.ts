// The terminal UI's Servers and Activity views and their modals (ink-testing-library), against a real HTTP gateway
// fronting real npm servers (server-everything, server-memory): states and tool counts, restart, Configure Tools
// (Select All, toggle, Save: live and in the config file), Add Server (written, started, its tools offered), the live
// activity of a real client's call, filtering and Ctrl+L, and the header, help and connect screens.
import { readFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { connectHttp, npmServer, startHttpGateway, waitFor, writeConfig, type ConnectedClient, type RunningGateway } from '../helpers/gateway.js';
import { KEYS, renderTui, type RenderedTui } from '../helpers/tui.js';
import { AdminClient } from '../../src/tui/client.js';

const open: Array<{ close(): Promise<void> } | RenderedTui> = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) 'unmount' in o ? o.unmount() : await o.close().catch(() => undefined);
});

describe('TUI: servers and activity', () => {
  it('shows servers, restarts one, configures its tools, adds a server and follows live activity', async () => {
    const config = await writeConfig({ everything: npmServer('everything'), memory: npmServer('memory', [], { MEMORY_FILE_PATH: '/dev/null' }) }, { http: { unauthenticatedAdmin: true } });
    const gateway: RunningGateway = await startHttpGateway(config);
    open.push(gateway);
    // A client whose session keeps the servers' connections up (a restart then recycles a running server).
    const mcp: ConnectedClient = await connectHttp(gateway.url);
    open.push(mcp);
    await mcp.client.listTools();
    const tui = renderTui(gateway.url);
    open.push(tui);

    // Servers: both listed with their tool counts (enabled/listed), the header counts them.
    let frame = await tui.until((f) => /everything\s+\S+\s+13\/13/.test(f) && /memory\s+\S+\s+9\/9/.test(f), 30_000);
    expect(frame).toContain('servers 2');
    expect(frame).toContain('RESTARTS');
    expect(frame).toMatch(/r restart {2}t tools {2}\^A add/);

    // r restarts the selected server (everything): counted in RESTARTS.
    tui.press('r');
    await tui.until('everything restarted');
    await tui.until((f) => /› everything\s+connected\s+13\/13\s+\S+\s+1\s/.test(f), 30_000);

    // t: Configure Tools, pre-checked with what is enabled; a = none; space checks the first; Enter saves.
    tui.press('t');
    await tui.until('Selected: 13/13 tools');
    tui.press('a');
    await tui.until('Selected: 0/13 tools');
    tui.press(KEYS.space);
    frame = await tui.until('Selected: 1/13 tools');
    expect(frame).toMatch(/› \[x\] echo/);
    tui.press(KEYS.down);
    await tui.until(/› \[ \] get-annotated-message/);
    tui.press(KEYS.space);
    await tui.until('Selected: 2/13 tools');
    tui.press(KEYS.enter);
    await tui.until('everything: 2/13 tools enabled');
    const client = new AdminClient(gateway.url);
    expect((await client.serverTools('everything')).tools.filter((t) => t.enabled).map((t) => t.name)).toEqual(['echo', 'get-annotated-message']);
    expect((JSON.parse(await readFile(config, 'utf8')) as { mcpServers: { everything: { enabledTools: string[] } } }).mcpServers.everything.enabledTools).toEqual(['echo', 'get-annotated-message']);
    await tui.until((f) => /everything\s+\S+\s+2\/13/.test(f));

    // Ctrl+A: Add Server. A bad entry is refused with the gateway's reason; a good one is added and its tools offered.
    tui.press(KEYS.ctrl('a'));
    await tui.until('Add Server');
    tui.press(KEYS.enter);
    await tui.until(/give "command"|key: /);
    const memory = npmServer('memory');
    // Each key waits for the frame it causes (a real terminal's keys come one render apart).
    tui.press('notes');
    await tui.until('› Name     notes');
    tui.press(KEYS.tab);
    await tui.until('› Type');
    tui.press(KEYS.tab); // past Type (stdio)
    await tui.until('› Command');
    tui.press(memory.command);
    await tui.until(memory.command);
    tui.press(KEYS.tab);
    await tui.until('› Args');
    tui.press(memory.args.join(' '));
    await tui.until(`${memory.args.join(' ')}▏`);
    tui.press(KEYS.tab);
    await tui.until('› Env');
    tui.press('MEMORY_FILE_PATH=/dev/null');
    await tui.until('MEMORY_FILE_PATH=/dev/null');
    tui.press(KEYS.enter);
    frame = await tui.until('Configure Tools: notes (new server)', 30_000);
    await tui.until('Selected: 9/9 tools', 30_000);
    tui.press(KEYS.escape);
    await tui.until((f) => /notes\s+\S+\s+9\/9/.test(f), 30_000);
    expect((JSON.parse(await readFile(config, 'utf8')) as { mcpServers: Record<string, unknown> }).mcpServers.notes).toMatchObject({ command: memory.command, env: { MEMORY_FILE_PATH: '/dev/null' } });

    // l: Activity, live: a real client's call shows up with its status and latency.
    tui.press('l');
    await tui.until('stream open');
    await mcp.client.callTool({ name: 'everything_echo', arguments: { message: 'hi' } });
    await mcp.client.callTool({ name: 'everything_get-annotated-message', arguments: { messageType: 'nope' } }).catch(() => undefined);
    frame = await tui.until((f) => /everything\s+echo\s+ok\s+\d+ms/.test(f));
    await tui.until('get-annotated-m');
    // f: filter by tool; then by a status nothing has.
    tui.press('f');
    await tui.until('Filter: ▏');
    tui.press('tool:echo');
    await tui.until('Filter: tool:echo▏');
    tui.press(KEYS.enter);
    frame = await tui.until('Filter: tool:echo');
    await waitFor(() => !tui.frame().includes('get-annotated-m') && tui.frame(), 'the filter to hide get-annotated-message');
    tui.press('f');
    await tui.until('Filter: tool:echo▏');
    for (let left = 'tool:echo'.length - 1; left >= 0; left--) {
      tui.press(KEYS.backspace);
      await tui.until(`Filter: ${'tool:echo'.slice(0, left)}▏`);
    }
    await tui.until('Filter: ▏');
    tui.press('status:timeout');
    await tui.until('Filter: status:timeout▏');
    tui.press(KEYS.enter);
    await tui.until('Nothing matches the filter.');
    // Ctrl+L clears the log.
    tui.press(KEYS.ctrl('l'));
    await tui.until(/0\/0 events/);

    // ? help and i connect, each closed with Esc.
    tui.press('?');
    await tui.until('Command menu');
    tui.press(KEYS.escape);
    await tui.until('^L clear');
    tui.press('i');
    frame = await tui.until('Connect MCP clients');
    expect(frame).toContain(`claude mcp add --transport http sb ${gateway.url}/mcp`);
    tui.press(KEYS.escape);
    await tui.until('^L clear');
  }, 60_000);

  it('says when the gateway is unreachable', async () => {
    const tui = renderTui('http://127.0.0.1:9');
    open.push(tui);
    const frame = await tui.until('Gateway unreachable at http://127.0.0.1:9');
    expect(frame).toContain('Retrying every 2 s');
  });
});
