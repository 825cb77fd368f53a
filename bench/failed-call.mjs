#!/usr/bin/env node
// @ts-check
// How fast a failed tool call is answered with a big stored history (issue 17: within 5 ms of the
// server's error with 300k calls stored). Fills a fresh data dir with N recorded calls (default
// 300,000, all raw rows inside the retention window: the worst case for SQL over them), then, in one
// run, interleaves through `switchboard serve --stdio` (default settings: recording on) and directly
// against the bench echo server: a call that succeeds (echo) and one the server fails (sum with a
// non-number). Also times, on the same store, the SQL a failed call used to run (toolStats, with
// percentiles) and what the gateway now runs once at start instead (toolCounts).
//
//   node bench/failed-call.mjs [--stored N] [--calls N]
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT_DIR, rootImport } from './lib/root-modules.mjs';

const { Client } = await rootImport('@modelcontextprotocol/client');
const { StdioClientTransport } = await rootImport('@modelcontextprotocol/client', './stdio');
const { z } = await rootImport('zod');
const { openDatabase } = await import(path.join(ROOT_DIR, 'dist/store/index.js'));

const { values } = parseArgs({ options: { stored: { type: 'string' }, calls: { type: 'string' } } });
const STORED = Number(values.stored ?? 300_000);
const CALLS = Number(values.calls ?? 300);
const TOOLS = 40;
const DAY = 86_400_000;
const ANY = z.any();

const tmp = mkdtempSync(path.join(os.tmpdir(), 'switchboard-failed-call-'));
const dataDir = path.join(tmp, 'data');
const echo = { command: process.execPath, args: [path.join(ROOT_DIR, 'bench/echo-server.mjs'), '--stdio'] };
const configFile = path.join(tmp, '.mcp.json');
writeFileSync(configFile, JSON.stringify({ mcpServers: { echo } }));

/** @param {number[]} xs @param {number} q */
const quantile = (xs, q) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};
/** @param {number} ms */
const fmt = (ms) => ms.toFixed(3);

function seed() {
  const store = openDatabase(dataDir);
  const insert = store.db.prepare('INSERT INTO metrics_calls (server, tool, session, started_at, duration_ms, outcome, error_class, error_message) VALUES (?, ?, NULL, ?, ?, ?, ?, ?)');
  const now = Date.now();
  const names = ['echo', 'sum', 'payload', ...Array.from({ length: TOOLS - 3 }, (_, i) => `tool_${i}`)];
  store.db.transaction(() => {
    for (let i = 0; i < STORED; i++) {
      const failed = i % 10 === 0;
      insert.run('echo', names[i % TOOLS], now - Math.floor((i / STORED) * 5 * DAY), 0.5 + (i % 97) / 10, failed ? 'tool_error' : 'ok', failed ? 'isError' : null, failed ? 'boom' : null);
    }
  })();
  const t0 = performance.now();
  const stats = store.metrics.toolStats({});
  const statsMs = performance.now() - t0;
  const t1 = performance.now();
  store.metrics.toolCounts();
  const countsMs = performance.now() - t1;
  store.close();
  return { statsMs, countsMs, tools: stats.length };
}

/** @param {{command: string, args: string[]}} target */
async function connect(target) {
  const client = new Client({ name: 'bench', version: '1' }, { capabilities: {} });
  await client.connect(new StdioClientTransport({ ...target, stderr: 'ignore' }));
  return client;
}

/** @param {any} client @param {string} name @param {Record<string, unknown>} args */
async function timed(client, name, args) {
  const t = performance.now();
  let failed = false;
  let answer;
  try {
    answer = await client.request({ method: 'tools/call', params: { name, arguments: args } }, ANY);
    failed = answer.isError === true;
  } catch (error) {
    answer = error;
    failed = true;
  }
  return { ms: performance.now() - t, failed, answer };
}

const started = performance.now();
process.stderr.write(`filling a store with ${STORED} calls...\n`);
const sql = seed();
const gateway = await connect({ command: process.execPath, args: [path.join(ROOT_DIR, 'dist/bundle/main.js'), 'serve', '--stdio', '--config', configFile, '--data-dir', dataDir] });
const direct = await connect(echo);
const bad = { a: 'not a number', b: 1 };
/** @type {Record<'gatewayOk' | 'gatewayFail' | 'directOk' | 'directFail', number[]>} */
const runs = { gatewayOk: [], gatewayFail: [], directOk: [], directFail: [] };
/** @type {any} */
let sample;
// Warm-up (V8 optimizes both sides' hot paths over the first few thousand calls).
for (let i = 0; i < 1500; i++) {
  await timed(gateway, 'echo_echo', { message: 'hi' });
  await timed(direct, 'echo', { message: 'hi' });
}
for (let i = 0; i < 50; i++) await timed(gateway, 'echo_sum', bad);
for (let i = 0; i < CALLS; i++) {
  const order = i % 2 === 0;
  const g = async () => {
    runs.gatewayOk.push((await timed(gateway, 'echo_echo', { message: 'hi' })).ms);
    const f = await timed(gateway, 'echo_sum', bad);
    if (!f.failed) throw new Error('the failing call succeeded through the gateway');
    sample = f.answer;
    runs.gatewayFail.push(f.ms);
  };
  const d = async () => {
    runs.directOk.push((await timed(direct, 'echo', { message: 'hi' })).ms);
    const f = await timed(direct, 'sum', bad);
    if (!f.failed) throw new Error('the failing call succeeded directly');
    runs.directFail.push(f.ms);
  };
  if (order) { await g(); await d(); } else { await d(); await g(); }
}
await gateway.close();
await direct.close();
rmSync(tmp, { recursive: true, force: true });

const suggestions = sample?.structuredContent?.fallback_suggestions ?? sample?.data?.fallback_suggestions ?? [];
const p = (/** @type {number[]} */ xs) => `p50 ${fmt(quantile(xs, 0.5))} / p90 ${fmt(quantile(xs, 0.9))} / p99 ${fmt(quantile(xs, 0.99))} ms`;
const lines = [
  `failed-call bench: ${STORED} stored calls over ${sql.tools} tools, ${CALLS} interleaved calls per kind, Node ${process.version}, ${os.cpus().length} cores, load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`,
  `  SQL a failed call used to run (toolStats with percentiles): ${fmt(sql.statsMs)} ms`,
  `  SQL now run once at gateway start (toolCounts):            ${fmt(sql.countsMs)} ms`,
  `  direct  ok   ${p(runs.directOk)}`,
  `  direct  fail ${p(runs.directFail)}`,
  `  gateway ok   ${p(runs.gatewayOk)}`,
  `  gateway fail ${p(runs.gatewayFail)}  (${suggestions.length} fallback suggestions attached)`,
  `  failed call, gateway minus direct (p50): ${fmt(quantile(runs.gatewayFail, 0.5) - quantile(runs.directFail, 0.5))} ms (goal <= 5 ms)`,
  `  failure path extra over an ok call through the gateway (p50): ${fmt(quantile(runs.gatewayFail, 0.5) - quantile(runs.gatewayOk, 0.5))} ms`,
  `  total ${((performance.now() - started) / 1000).toFixed(1)} s`,
];
process.stdout.write(`${lines.join('\n')}\n`);
