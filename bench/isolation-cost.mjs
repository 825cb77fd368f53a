#!/usr/bin/env node
// @ts-check
// What isolation between clients costs (docs/security.md, "Isolation between clients"): downstream
// processes and the RSS of the gateway's whole process tree with N HTTP clients that declare sampling
// (each gets its own connections) against N that declare nothing (they share one per server), with the
// demo servers (everything, filesystem, memory), every server used by every client; then the same tree
// after the idle release (isolatedIdleMs) has stopped the per-session connections.
//
//   node bench/isolation-cost.mjs [--clients 1,2,4,8] [--idle-ms 30000] [--json PATH]
//
// --idle-ms must exceed the time to open every client, or the first ones are released before the count.
//
// Uses dist/bundle/ (run `npm run build` first). Everything on 127.0.0.1, every process stopped by PID.
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT_DIR, rootImport } from './lib/root-modules.mjs';
import { killAllStarted, registerPid, statusKb, stopTree, treePids, unregisterPid } from './lib/procs.mjs';

const { values } = parseArgs({ options: { clients: { type: 'string', default: '1,2,4,8' }, 'idle-ms': { type: 'string', default: '30000' }, json: { type: 'string' } } });
const counts = values.clients.split(',').map(Number);
const idleMs = Number(values['idle-ms']);
const { Client, StreamableHTTPClientTransport } = await rootImport('@modelcontextprotocol/client');

const tmp = mkdtempSync(path.join(os.tmpdir(), 'switchboard-isolation-cost-'));
/** @param {string} pkg @param {string[]} [args] @param {Record<string, string>} [env] */
const server = (pkg, args = [], env = {}) => ({ command: process.execPath, args: [path.join(ROOT_DIR, `node_modules/@modelcontextprotocol/server-${pkg}/dist/index.js`), ...args], env });
const config = path.join(tmp, '.mcp.json');
writeFileSync(config, JSON.stringify({
  mcpServers: { everything: server('everything', ['stdio']), filesystem: server('filesystem', [tmp]), memory: server('memory', [], { MEMORY_FILE_PATH: path.join(tmp, 'memory.jsonl') }) },
  switchboard: { isolatedIdleMs: idleMs },
}));

/** @typedef {{pid: number, url: string}} Gateway */
/** What GET /api/servers answers, as far as read here (src/gateway/server-status.ts). @typedef {{servers: Array<{connections: Array<{profile: string, pid: number | null}>}>}} ServersAnswer */

/** Starts a gateway; resolves with its pid and URL. @returns {Promise<Gateway>} */
async function startGateway() {
  const child = spawn(process.execPath, [path.join(ROOT_DIR, 'dist/bundle/main.js'), 'serve', '--http', '--port', '0', '--config', config, '--data-dir', path.join(tmp, `data-${Date.now()}`), '--log-level', 'info'], { stdio: ['ignore', 'ignore', 'pipe'] });
  registerPid(/** @type {number} */ (child.pid));
  let text = '';
  /** @type {string} */
  const url = await new Promise((resolve, reject) => {
    child.stderr.on('data', (chunk) => {
      text += chunk.toString();
      const match = /"url":"(http:[^"]+)\/mcp"/.exec(text);
      if (match) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`gateway exited with ${code}: ${text.slice(-2000)}`)));
  });
  return { pid: /** @type {number} */ (child.pid), url };
}

/** Processes and summed RSS (MB) of a tree, and the live connections the gateway reports (own = one session's). @param {Gateway} gateway */
async function tree(gateway) {
  const pids = treePids(gateway.pid);
  const body = /** @type {ServersAnswer} */ (await (await fetch(`${gateway.url}/api/servers`)).json());
  const live = body.servers.flatMap((s) => s.connections).filter((c) => c.pid !== null);
  return {
    downstream: pids.length - 1,
    own: live.filter((c) => c.profile.includes('@')).length,
    shared: live.filter((c) => !c.profile.includes('@')).length,
    rssMb: Math.round(pids.reduce((sum, p) => sum + statusKb(p, 'VmRSS'), 0) / 102.4) / 10,
  };
}

/** @param {string} url @param {import('@modelcontextprotocol/client').ClientCapabilities} capabilities */
async function openClient(url, capabilities) {
  const client = new Client({ name: 'isolation-cost', version: '1.0.0' }, { capabilities });
  if (capabilities.sampling) client.setRequestHandler('sampling/createMessage', async () => ({ model: 'm', role: 'assistant', content: { type: 'text', text: 'x' } }));
  const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp`));
  await client.connect(transport);
  // Use every server once, so each connection this client needs is started.
  await client.callTool({ name: 'everything_echo', arguments: { message: 'hi' } }, CALL);
  await client.callTool({ name: 'filesystem_list_allowed_directories', arguments: {} }, CALL);
  await client.callTool({ name: 'memory_read_graph', arguments: {} }, CALL);
  return { client, transport };
}

// A loaded machine may take long to start a client's servers: generous timeouts, and nothing left behind on failure.
const CALL = { timeout: 300_000 };
process.on('uncaughtException', (error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  killAllStarted();
  process.exit(1);
});
const rows = [];
for (const n of counts) {
  for (const kind of ['shared (no capability)', 'isolated (sampling)']) {
    const gateway = await startGateway();
    const clients = [];
    for (let i = 0; i < n; i++) clients.push(await openClient(gateway.url, kind.startsWith('isolated') ? { sampling: {} } : {}));
    await new Promise((r) => setTimeout(r, 500));
    const open = await tree(gateway);
    let idle = open;
    if (kind.startsWith('isolated')) {
      await new Promise((r) => setTimeout(r, idleMs + Math.min(60_000, idleMs / 2) + 2000));
      idle = await tree(gateway);
    }
    rows.push({ clients: n, kind, open, idle });
    process.stderr.write(`${JSON.stringify(rows.at(-1))}\n`);
    for (const { client, transport } of clients) {
      await transport.terminateSession().catch(() => undefined);
      await client.close().catch(() => undefined);
    }
    await stopTree(gateway.pid);
    unregisterPid(gateway.pid);
  }
}

process.stdout.write('| clients | kind | downstream processes (own + shared connections) | RSS of the tree (MB) | after idle release: processes | RSS (MB) |\n|---|---|---|---|---|---|\n');
for (const r of rows) {
  const isolated = r.kind.startsWith('isolated');
  process.stdout.write(`| ${r.clients} | ${r.kind} | ${r.open.downstream} (${r.open.own} + ${r.open.shared}) | ${r.open.rssMb} | ${isolated ? `${r.idle.downstream} (${r.idle.own} + ${r.idle.shared})` : '-'} | ${isolated ? r.idle.rssMb : '-'} |\n`);
}
if (values.json) writeFileSync(values.json, JSON.stringify({ idleMs, rows }, null, 2));
