#!/usr/bin/env node
// @ts-check
// Instant answers (issue 15 item 1): how fast `server/discover` and `initialize` are answered with
// ten cold downstream servers configured (server-memory, never started), on both faces, against a
// baseline measured in the same run: initialize answered by server-memory itself over stdio.
//
//   node bench/instant-answers.mjs [--rounds N]      (builds dist/ and its bundle first)
//
// stdio: each round spawns the gateway, waits for its "configuration loaded" line, then times
// server/discover and initialize (send to answer). HTTP: one gateway; each round times a session-less
// server/discover, initialize on /mcp, initialize on /s/{key}/mcp with the server's handshake
// remembered (after one listing run), and, on a fresh data dir, on /s/{key}/mcp for a server never
// seen (which waits for its start: the old behaviour for every per-server initialize).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildCli } from './lib/built-cli.mjs';
import { ROOT_DIR } from './lib/root-modules.mjs';
import { lineClient } from './lib/line-client.mjs';
import { killAllStarted, registerPid, stopTree, unregisterPid } from './lib/procs.mjs';
import { summarize } from './lib/stats.mjs';

const { values } = parseArgs({ options: { rounds: { type: 'string' } } });
const ROUNDS = Number(values.rounds ?? 15);
const CLI = path.join(ROOT_DIR, 'dist/bundle/main.js');
const MEMORY = path.join(ROOT_DIR, 'node_modules/@modelcontextprotocol/server-memory/dist/index.js');
const INITIALIZE = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } };
// A full 2026-07-28 envelope (what a modern client sends): answered with a DiscoverResult under the default
// --inbound-era auto, with -32601 (the 2025 way) under legacy.
const DISCOVER = {
  _meta: {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
    'io.modelcontextprotocol/clientCapabilities': {},
  },
};
const MODERN_HEADERS = { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'server/discover' };

/** A config with ten server-memory entries in a fresh folder. */
function tenServers() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'switchboard-bench-instant-'));
  const servers = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`m${i}`, { command: process.execPath, args: [MEMORY], env: { MEMORY_FILE_PATH: path.join(dir, `m${i}.jsonl`) } }]));
  writeFileSync(path.join(dir, '.mcp.json'), JSON.stringify({ mcpServers: servers }));
  return { config: path.join(dir, '.mcp.json'), dataDir: path.join(dir, 'data') };
}

/** @param {string} url @param {string} method @param {object} params */
async function post(url, method, params) {
  const started = performance.now();
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(method === 'server/discover' && MODERN_HEADERS) },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  await response.text();
  const ms = performance.now() - started;
  const session = response.headers.get('mcp-session-id');
  if (session) await fetch(url, { method: 'DELETE', headers: { 'mcp-session-id': session } });
  return { ms, status: response.status };
}

/** @param {string} config @param {string} dataDir */
async function httpGateway(config, dataDir) {
  const child = spawn(process.execPath, [CLI, 'serve', '--http', '--port', '0', '--config', config, '--data-dir', dataDir, '--no-log-file'], { cwd: ROOT_DIR, stdio: ['pipe', 'ignore', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
  registerPid(/** @type {number} */ (child.pid));
  let err = '';
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`gateway did not listen: ${err.slice(-500)}`)), 30_000);
    child.stderr.on('data', (chunk) => {
      err += chunk;
      const match = /"url":"(http:\/\/[^"]+)\/mcp"/.exec(err) ?? /at (http:\/\/\S+)\/mcp/.exec(err);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
  });
  return { url, close: async () => { await stopTree(/** @type {number} */ (child.pid)); unregisterPid(/** @type {number} */ (child.pid)); } };
}

/** @param {string} label @param {number[]} samples @param {number} [baseline] */
function row(label, samples, baseline) {
  const s = summarize(samples);
  if (s.p50_ms === null || s.p90_ms === null) throw new Error(`${label}: no samples (every round failed before this step)`);
  const ratio = baseline ? ` ${(s.p50_ms / baseline).toFixed(2)}x baseline` : '';
  console.log(`${label.padEnd(58)} p50 ${s.p50_ms.toFixed(2).padStart(8)} ms  p90 ${s.p90_ms.toFixed(2).padStart(8)} ms  (n=${s.n})${ratio}`);
  return s.p50_ms;
}

async function main() {
  if (!buildCli(ROOT_DIR)) throw new Error('build failed');
  const samples = { direct: /** @type {number[]} */ ([]), stdioDiscover: /** @type {number[]} */ ([]), stdioInit: /** @type {number[]} */ ([]) };
  for (let round = 0; round < ROUNDS; round++) {
    process.stderr.write(`stdio round ${round + 1}/${ROUNDS}\n`);
    const direct = await lineClient([MEMORY], { ready: (err) => err.includes('running on stdio') });
    samples.direct.push((await direct.request('initialize', INITIALIZE)).ms);
    await direct.close();
    const { config, dataDir } = tenServers();
    const gateway = await lineClient([CLI, 'serve', '--stdio', '--config', config, '--data-dir', dataDir, '--no-log-file', '--log-level', 'info'], { ready: (err) => err.includes('configuration loaded') });
    const discover = await gateway.request('server/discover', DISCOVER);
    if (!discover.message.result?.supportedVersions && discover.message.error?.code !== -32601) throw new Error(`unexpected discover answer ${JSON.stringify(discover.message)}`);
    samples.stdioDiscover.push(discover.ms);
    samples.stdioInit.push((await gateway.request('initialize', INITIALIZE)).ms);
    await gateway.close();
  }

  // HTTP: every handshake remembered (one listing run), ten servers cold in the measured gateway.
  const warm = tenServers();
  spawnSync(process.execPath, [CLI, 'tools', '--config', warm.config, '--data-dir', warm.dataDir], { cwd: ROOT_DIR, stdio: 'ignore', timeout: 120_000 });
  const gateway = await httpGateway(warm.config, warm.dataDir);
  const http = { discover: /** @type {number[]} */ ([]), init: /** @type {number[]} */ ([]), perServer: /** @type {number[]} */ ([]), miss: /** @type {number[]} */ ([]) };
  const first = await post(`${gateway.url}/mcp`, 'server/discover', DISCOVER); // the first request pays for JIT and module loading
  if (first.status !== 200) throw new Error(`server/discover over HTTP answered ${first.status}`);
  for (let round = 0; round < ROUNDS; round++) {
    http.discover.push((await post(`${gateway.url}/mcp`, 'server/discover', DISCOVER)).ms);
    http.init.push((await post(`${gateway.url}/mcp`, 'initialize', INITIALIZE)).ms);
    http.perServer.push((await post(`${gateway.url}/s/m${round % 10}/mcp`, 'initialize', INITIALIZE)).ms);
  }
  await gateway.close();
  // Never seen: the per-server initialize waits for the server's start (what every one did before).
  for (let round = 0; round < Math.min(ROUNDS, 5); round++) {
    process.stderr.write(`HTTP cache-miss round ${round + 1}\n`);
    const fresh = tenServers();
    const cold = await httpGateway(fresh.config, fresh.dataDir);
    await post(`${cold.url}/mcp`, 'server/discover', DISCOVER);
    http.miss.push((await post(`${cold.url}/s/m0/mcp`, 'initialize', INITIALIZE)).ms);
    await cold.close();
  }

  console.log(`\ninstant answers, ten cold server-memory downstreams, ${ROUNDS} rounds (${os.cpus().length} cores, load ${os.loadavg()[0].toFixed(2)})`);
  const baseline = row('baseline: initialize answered by server-memory itself (stdio)', samples.direct);
  row('stdio: server/discover (before initialize)', samples.stdioDiscover, baseline);
  row('stdio: initialize', samples.stdioInit, baseline);
  row('HTTP: server/discover without a session', http.discover, baseline);
  row('HTTP: initialize on /mcp', http.init, baseline);
  const cached = row('HTTP: initialize on /s/{key}/mcp, handshake remembered', http.perServer, baseline);
  const miss = row('HTTP: initialize on /s/{key}/mcp, never seen (waits start)', http.miss, baseline);
  console.log(`per-server initialize: remembered handshake ${(miss / cached).toFixed(1)}x faster than waiting for the start`);
}

main().catch((error) => {
  console.error(error);
  killAllStarted();
  process.exit(1);
});
