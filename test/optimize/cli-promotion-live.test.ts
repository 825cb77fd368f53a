// A promotion or revert made from a terminal (`switchboard optimize promote|revert`, a separate process writing the
// same SQLite store) reaches the clients of a running gateway without a restart: two real clients on two faces
// (aggregate /mcp and the per-server endpoint) see the new text and hear list_changed, then the canonical one again.
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { connectHttp, newClient, npmServer, startHttpGateway, waitFor, writeConfig, type ConnectedClient, type RunningGateway } from '../helpers/gateway.js';
import { runCli } from '../cli/run-cli.js';

const open: Array<ConnectedClient | RunningGateway> = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close().catch(() => undefined);
});

const TEXT = 'Adds two numbers a and b and returns their sum; for totals of counts or amounts.';

describe('promotions made with the CLI', () => {
  it('reach a running gateway\'s clients live, and so does the revert', async () => {
    const config = await writeConfig({ everything: npmServer('everything') });
    const gw = await startHttpGateway(config);
    open.push(gw);
    const clients = await Promise.all(['/mcp', '/s/everything/mcp'].map(async (endpoint) => {
      let changed = 0;
      const client = newClient();
      client.setNotificationHandler('notifications/tools/list_changed', () => void changed++);
      const connected = await connectHttp(gw.url, client, endpoint);
      open.push(connected);
      return { client, changed: () => changed, name: endpoint === '/mcp' ? 'everything_get-sum' : 'get-sum' };
    }));
    const description = async (c: (typeof clients)[number]) => (await c.client.listTools()).tools.find((t) => t.name === c.name)?.description;
    const canonical = await description(clients[0]);
    expect(canonical).toBeTruthy();
    expect(await description(clients[1])).toBe(canonical);

    // server-everything announces its own list changes after it starts: count from here.
    await new Promise((resolve) => setTimeout(resolve, 500));
    let before = clients.map((c) => c.changed());
    const cli = (...args: string[]) => runCli([...args, '--config', config, '--enable-optimization'], path.join(path.dirname(config), 'data'));
    const promoted = await cli('optimize', 'promote', 'everything', 'get-sum', '--description', TEXT, '--force');
    expect(promoted.code, promoted.stderr).toBe(0);
    expect(promoted.stdout).toContain('A running gateway using this data dir shows it to its clients within about 2 s, with list_changed.');
    for (const c of clients) {
      await waitFor(async () => (await description(c)) === TEXT, `the promoted text on ${c.name}`, 15_000);
      await waitFor(() => c.changed() > before[clients.indexOf(c)], `list_changed on ${c.name}`);
    }
    // The log reaches the test through a pipe, possibly after the clients' notifications.
    await waitFor(() => gw.log.records().some((r) => r.msg === 'promotions changed in the store; descriptions re-applied') || undefined, 'the re-apply to be logged');

    before = clients.map((c) => c.changed());
    const reverted = await cli('optimize', 'revert', 'everything', '--tools', 'get-sum');
    expect(reverted.code, reverted.stderr).toBe(0);
    for (const [i, c] of clients.entries()) {
      await waitFor(async () => (await description(c)) === canonical, `the canonical text on ${c.name} after the revert`, 15_000);
      await waitFor(() => c.changed() > before[i], `list_changed on ${c.name} after the revert`);
    }
  }, 120_000);
});
