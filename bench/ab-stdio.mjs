#!/usr/bin/env node
// @ts-check
// Side-by-side A/B of stdio variants on a busy machine: every variant runs at once (one client, one
// process tree each), warmed, then measured in interleaved blocks of sequential `tools/call echo`
// (the order rotating every round), so load changes hit every variant alike. Reports per variant the
// median over blocks of the wall time per call, the median of every measured call's own time (p50),
// and the CPU time per call of the process the client spawned (the gateway; for `direct` the echo
// server itself: median over blocks, and over all blocks together), with ratios to `direct`.
//
//   node bench/ab-stdio.mjs [--baseline DIR] [--variants direct,default,logdebug,logwarn,journal-write,norecord,optimize-for-size,semi1,semi4,semi8,pipe-relay,json-relay,baseline,hypertool,1mcp] [--rounds N] [--calls N] [--warmup N] [--peers DIR]
//
// hypertool and 1mcp are the stdio peer gateways (lib/stdio-peers.mjs), built from source into DIR
// (--peers, default $SWITCHBOARD_BENCH_PEERS): never installed by this project.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { builtMain } from './lib/built-cli.mjs';
import { STEADY_WARMUP_CALLS } from './lib/measure.mjs';
import { processCpuMs } from './lib/procs.mjs';
import { median as medianOf } from './lib/stats.mjs';
import { ROOT_DIR, rootImport } from './lib/root-modules.mjs';
import { STDIO_PEERS, stdioPeersDir } from './lib/stdio-peers.mjs';

const { Client } = await rootImport('@modelcontextprotocol/client');
const { StdioClientTransport } = await rootImport('@modelcontextprotocol/client', './stdio');
const { z } = await rootImport('zod');
const ANY = z.any();

const { values } = parseArgs({ options: { variants: { type: 'string' }, rounds: { type: 'string' }, calls: { type: 'string' }, warmup: { type: 'string' }, peers: { type: 'string' }, baseline: { type: 'string' } } });
const PEERS = stdioPeersDir(values.peers);
const ROUNDS = Number(values.rounds ?? 12);
const CALLS = Number(values.calls ?? 300);
const WARMUP = Number(values.warmup ?? STEADY_WARMUP_CALLS);
const tmp = mkdtempSync(path.join(os.tmpdir(), 'switchboard-ab-'));
const ECHO = [path.join(ROOT_DIR, 'bench/echo-server.mjs'), '--stdio'];
const MAIN = path.join(ROOT_DIR, 'dist/bundle/main.js');
/** A built checkout's CLI: its bundle, or dist/cli/main.js for a build from before the bundle. @param {string} dir */

/** @param {string} name @param {Record<string, unknown>} [settings] */
function gatewayArgs(name, settings) {
  const config = path.join(tmp, `${name}.mcp.json`);
  writeFileSync(config, JSON.stringify({ mcpServers: { echo: { command: process.execPath, args: ECHO } }, ...(settings && { switchboard: settings }) }));
  return [MAIN, 'serve', '--stdio', '--config', config, '--data-dir', path.join(tmp, `${name}-data`)];
}

/** @type {Record<string, () => {args: string[], env?: Record<string, string>, tool: string}>} */
const KNOWN = {
  direct: () => ({ args: ECHO, tool: 'echo' }),
  default: () => ({ args: gatewayArgs('default'), tool: 'echo_echo' }),
  logdebug: () => ({ args: [...gatewayArgs('logdebug'), '--log-level', 'debug'], tool: 'echo_echo' }),
  logwarn: () => ({ args: [...gatewayArgs('logwarn'), '--log-level', 'warn'], tool: 'echo_echo' }),
  'journal-write': () => ({ args: gatewayArgs('journal-write'), env: { SWITCHBOARD_CALL_JOURNAL: 'write' }, tool: 'echo_echo' }),
  norecord: () => ({ args: gatewayArgs('norecord', { recordCalls: false }), tool: 'echo_echo' }),
  // V8 sized for memory: less RSS for more CPU per call, not the default (docs/performance.md).
  'optimize-for-size': () => ({ args: ['--optimize-for-size', ...gatewayArgs('optimize-for-size')], tool: 'echo_echo' }),
  // The young generation kept at 1 MB semi-spaces (V8 grows them to 16 MB by default): less RSS, more CPU per call.
  semi1: () => ({ args: ['--max-semi-space-size=1', ...gatewayArgs('semi1')], tool: 'echo_echo' }),
  semi4: () => ({ args: ['--max-semi-space-size=4', ...gatewayArgs('semi4')], tool: 'echo_echo' }),
  semi8: () => ({ args: ['--max-semi-space-size=8', ...gatewayArgs('semi8')], tool: 'echo_echo' }),
  // The floor of any relay on this machine (bench/relay-floor.mjs): the process hop alone.
  'pipe-relay': () => ({ args: [path.join(ROOT_DIR, 'bench/relay-floor.mjs'), '--pipe', '--', process.execPath, ...ECHO], tool: 'echo' }),
  'json-relay': () => ({ args: [path.join(ROOT_DIR, 'bench/relay-floor.mjs'), '--json', '--', process.execPath, ...ECHO], tool: 'echo' }),
  // Another build of Switchboard (a checkout of an earlier commit, built): --baseline DIR.
  baseline: () => {
    const dir = values.baseline;
    if (!dir) throw new Error('the baseline variant needs --baseline DIR (a built checkout: DIR/dist/bundle/main.js, or DIR/dist/cli/main.js before the bundle)');
    return { args: gatewayArgs('baseline').map((a) => (a === MAIN ? builtMain(dir) : a)), tool: 'echo_echo' };
  },
  hypertool: () => peerSpec('hypertool'),
  '1mcp': () => peerSpec('1mcp'),
};

/** A stdio peer (lib/stdio-peers.mjs) in front of the echo server. @param {string} id */
function peerSpec(id) {
  const peer = /** @type {import('./lib/stdio-peers.mjs').StdioPeer} */ (STDIO_PEERS.find((p) => p.id === id));
  if (!PEERS) throw new Error(`the ${id} variant needs --peers DIR (the peers built from source into DIR: bench/README.md)`);
  const why = peer.unavailable(PEERS);
  if (why) throw new Error(why);
  const launched = peer.launch(PEERS, tmp, { command: process.execPath, args: ECHO });
  return { args: launched.args, env: { ...launched.env, PATH: process.env.PATH ?? '' }, tool: '' };
}
const names = (values.variants ?? 'direct,default,logdebug').split(',');
for (const name of names) if (!KNOWN[name]) throw new Error(`unknown variant ${name}; known: ${Object.keys(KNOWN).join(', ')}`);

/** The median of a variant's samples (every variant has samples once its rounds have run). @param {number[]} xs */
const median = (xs) => /** @type {number} */ (medianOf(xs));

/** @typedef {{name: string, client: InstanceType<typeof Client>, pid: number, tool: string, wall: number[], cpu: number[], latencies: number[], cpuTotalMs: number, systemTotalMs: number, rss: number}} Variant */
/** @type {Variant[]} */
const variants = [];
for (const name of names) {
  const spec = KNOWN[name]();
  const transport = new StdioClientTransport({ command: process.execPath, args: spec.args, env: spec.env, stderr: 'ignore' });
  const client = new Client({ name: 'ab', version: '1' }, { capabilities: {} });
  await client.connect(transport);
  // A peer's name for the echo tool is whatever it lists (each namespaces differently).
  const tool = spec.tool || (await listedEchoTool(client, name));
  variants.push({ name, client, pid: /** @type {number} */ (transport.pid), tool, wall: /** @type {number[]} */ ([]), cpu: /** @type {number[]} */ ([]), latencies: /** @type {number[]} */ ([]), cpuTotalMs: 0, systemTotalMs: 0, rss: 0 });
}
/** @param {any} client @param {string} name */
async function listedEchoTool(client, name) {
  for (let attempt = 0; attempt < 50; attempt++) {
    const { tools } = /** @type {{tools: {name: string}[]}} */ (await client.request({ method: 'tools/list', params: {} }, ANY));
    const echo = tools.find((t) => /echo$/.test(t.name));
    if (echo) return echo.name;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${name} lists no echo tool`);
}
/** Sequential calls; with `latencies`, each call's time (µs) is appended to it. @param {typeof variants[number]} v @param {number} n @param {number[]} [latencies] */
async function calls(v, n, latencies) {
  const params = { name: v.tool, arguments: { message: 'hello' } };
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await v.client.request({ method: 'tools/call', params }, ANY);
    latencies?.push((performance.now() - t0) * 1000);
  }
}
process.stderr.write(`warming ${names.join(', ')} with ${WARMUP} calls each\n`);
for (let done = 0; done < WARMUP; done += 500) for (const v of variants) await calls(v, 500);
for (let round = 0; round < ROUNDS; round++) {
  const order = variants.map((_, i) => variants[(i + round) % variants.length]);
  if (round % 2) order.reverse();
  for (const v of order) {
    const cpu0 = processCpuMs(v.pid);
    const t0 = performance.now();
    await calls(v, CALLS, v.latencies);
    v.wall.push(((performance.now() - t0) * 1000) / CALLS);
    const cpu1 = processCpuMs(v.pid);
    const spent = cpu1.user + cpu1.system - (cpu0.user + cpu0.system);
    v.cpu.push((spent * 1000) / CALLS);
    v.cpuTotalMs += spent;
    v.systemTotalMs += cpu1.system - cpu0.system;
  }
}
for (const v of variants) {
  const status = readFileSync(`/proc/${v.pid}/status`, 'utf8');
  v.rss = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}
for (const v of variants) await v.client.close();
rmSync(tmp, { recursive: true, force: true });

const direct = variants.find((v) => v.name === 'direct');
const lines = [
  `A/B stdio, ${ROUNDS} rounds x ${CALLS} sequential calls per variant after ${WARMUP} warm-up calls; Node ${process.version}, ${os.cpus().length} cores, load ${os.loadavg().map((l) => l.toFixed(1)).join(' ')} at the end`,
  '| variant | wall µs/call (median of blocks) | × direct | p50 µs of every call | p50 × direct | CPU µs/call of the spawned process (median of blocks) | CPU µs/call (all blocks) | of which system | RSS MB after |',
  '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  ...variants.map((v) => {
    const ratio = (/** @type {number} */ a, /** @type {number} */ b) => (direct ? (a / b).toFixed(2) + '×' : '-');
    const p50 = median(v.latencies);
    return `| ${v.name} | ${median(v.wall).toFixed(0)} | ${ratio(median(v.wall), median(direct?.wall ?? [1]))} | ${p50.toFixed(0)} | ${ratio(p50, median(direct?.latencies ?? [1]))} | ${median(v.cpu).toFixed(0)} | ${((v.cpuTotalMs * 1000) / (ROUNDS * CALLS)).toFixed(0)} | ${((v.systemTotalMs * 1000) / (ROUNDS * CALLS)).toFixed(0)} | ${v.rss.toFixed(0)} |`;
  }),
  '',
  'wall: each block of sequential calls timed whole (stalls such as GC and the journal\'s once-a-second insert included); p50: the median of every measured call\'s own time. CPU (all blocks): user + system time of the spawned process over every measured call (10 ms clock ticks, so finer than one block\'s); of which system: the kernel\'s share of it (pipe reads and writes, wake-ups).',
];
process.stdout.write(`${lines.join('\n')}\n`);
