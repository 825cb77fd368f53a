#!/usr/bin/env node
// @ts-check
// How a stdio target's per-call time falls as its JIT warms: the direct echo server and
// `switchboard serve --stdio` in front of the same server, both started fresh, then called in
// interleaved blocks of sequential `tools/call echo` (one block of each per step, so load changes hit
// both alike). Reports per step the calls each has answered so far, each one's p50 and the gateway's
// own CPU per call. The client writes JSON-RPC lines itself (lib/line-client.mjs, no SDK client), so
// what is timed is the target. It is why the full run warms each target with 10,000 calls (bench/lib/bench.mjs).
//
//   node bench/warm-up.mjs [--blocks N] [--calls N] [--gateway-node-flags="--flag ..."]
// --gateway-node-flags: Node/V8 flags for the gateway's process only, to try JIT settings (written with
// "=", as the value starts with "--"; e.g. --gateway-node-flags=--interrupt-budget=16896).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { lineClient } from './lib/line-client.mjs';
import { processCpuMs } from './lib/procs.mjs';
import { quantile } from './lib/stats.mjs';
import { ROOT_DIR } from './lib/root-modules.mjs';

const { values } = parseArgs({ options: { blocks: { type: 'string' }, calls: { type: 'string' }, 'gateway-node-flags': { type: 'string' } } });
const BLOCKS = Math.min(Number(values.blocks ?? 20), 200);
const CALLS = Math.min(Number(values.calls ?? 1000), 100_000);
const GATEWAY_FLAGS = (values['gateway-node-flags'] ?? '').split(/\s+/).filter(Boolean);
const tmp = mkdtempSync(path.join(os.tmpdir(), 'switchboard-warm-up-'));
const ECHO = [path.join(ROOT_DIR, 'bench/echo-server.mjs'), '--stdio'];
const config = path.join(tmp, '.mcp.json');
writeFileSync(config, JSON.stringify({ mcpServers: { echo: { command: process.execPath, args: ECHO } } }));

/** A target and the calls it has answered so far. @param {string[]} args @param {string} tool */
async function start(args, tool) {
  const client = await lineClient(args);
  await client.request('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'warm-up-bench', version: '1' } });
  client.notify('notifications/initialized');
  return { client, tool, answered: 0 };
}

/** @param {Awaited<ReturnType<typeof start>>} target */
async function block(target) {
  const times = new Float64Array(CALLS);
  const pid = /** @type {number} */ (target.client.child.pid);
  const cpuBefore = processCpuMs(pid);
  for (let i = 0; i < CALLS; i++) {
    const { ms, message } = await target.client.request('tools/call', { name: target.tool, arguments: { message: 'hello' } });
    if (message.error) throw new Error(`tools/call failed: ${message.error.message}`);
    times[i] = ms * 1000;
  }
  const cpuAfter = processCpuMs(pid);
  target.answered += CALLS;
  const cpuUs = ((cpuAfter.user + cpuAfter.system - cpuBefore.user - cpuBefore.system) * 1000) / CALLS;
  return { p50: /** @type {number} */ (quantile(times, 0.5)), cpuUs };
}

const direct = await start(ECHO, 'echo');
const gateway = await start([...GATEWAY_FLAGS, path.join(ROOT_DIR, 'dist/bundle/main.js'), 'serve', '--stdio', '--config', config, '--data-dir', path.join(tmp, 'data')], 'echo_echo');
try {
  const rows = [];
  for (let b = 0; b < BLOCKS; b++) {
    const [first, second] = b % 2 === 0 ? [direct, gateway] : [gateway, direct];
    const one = await block(first);
    const two = await block(second);
    const [d, g] = first === direct ? [one, two] : [two, one];
    rows.push(`| ${gateway.answered} | ${Math.round(d.p50)} | ${Math.round(g.p50)} | ${(g.p50 / d.p50).toFixed(2)}× | ${Math.round(d.cpuUs)} | ${Math.round(g.cpuUs)} |`);
    process.stderr.write(`block ${b + 1}/${BLOCKS}\n`);
  }
  const load = os.loadavg().map((l) => l.toFixed(1)).join(' ');
  console.log(`warm-up over stdio, ${BLOCKS} interleaved blocks of ${CALLS} sequential calls each, both targets started fresh${GATEWAY_FLAGS.length ? `, gateway flags ${GATEWAY_FLAGS.join(' ')}` : ''}; Node ${process.version}, ${os.cpus().length} cores, load ${load} at the end`);
  console.log('| calls answered | direct p50 µs | gateway p50 µs | × direct | direct CPU µs/call | gateway CPU µs/call |');
  console.log('|---:|---:|---:|---:|---:|---:|');
  for (const row of rows) console.log(row);
  console.log('CPU: the process the client spawned (the echo server, or the gateway without its child), clock ticks of 10 ms.');
} finally {
  await Promise.all([direct.client.close(), gateway.client.close()]);
  rmSync(tmp, { recursive: true, force: true });
}
