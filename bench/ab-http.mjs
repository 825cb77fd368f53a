#!/usr/bin/env node
// @ts-check
// Side-by-side A/B of HTTP-face variants, the HTTP twin of ab-stdio.mjs: every variant runs at once
// (its own server process on its own port, one echo server behind each gateway over stdio), warmed,
// then measured in interleaved rounds (the order rotating every round), so load changes hit every
// variant alike. Per round and variant: CALLS sequential `tools/call echo` on one session (the p50 of
// the calls' times, their p99 and the slowest, and the CPU of the process listening, per call), then SECONDS with SESSIONS
// sessions calling as fast as they are answered (calls/s). Reports medians over rounds, the p50's
// ratio to `direct` (the echo server's own HTTP face), and each process's VmRSS at the end.
//
//   node bench/ab-http.mjs [--variants direct,default,nocap,semi4,semi8,baseline] [--baseline DIR] [--rounds N] [--calls N] [--warmup N] [--seconds S] [--sessions N]
//
// `baseline` is another build of Switchboard (a built checkout: DIR/dist/bundle/main.js, or DIR/dist/cli/main.js before the bundle).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { builtMain } from './lib/built-cli.mjs';
import { ROOT_DIR } from './lib/root-modules.mjs';
import { openSession } from './lib/client.mjs';
import { STEADY_WARMUP_CALLS } from './lib/measure.mjs';
import { freePort, killAllStarted, processCpuMs, startServer, statusKb } from './lib/procs.mjs';
import { loadAverage, machineInfo } from './lib/report.mjs';

const { values } = parseArgs({
  options: {
    variants: { type: 'string' },
    baseline: { type: 'string' },
    rounds: { type: 'string' },
    calls: { type: 'string' },
    warmup: { type: 'string' },
    seconds: { type: 'string' },
    sessions: { type: 'string' },
  },
});
const ROUNDS = Number(values.rounds ?? 6);
const CALLS = Number(values.calls ?? 500);
const WARMUP = Number(values.warmup ?? STEADY_WARMUP_CALLS);
const SECONDS = Number(values.seconds ?? 4);
const SESSIONS = Number(values.sessions ?? 32);
const ECHO = path.join(ROOT_DIR, 'bench/echo-server.mjs');
const MAIN = path.join(ROOT_DIR, 'dist/bundle/main.js');
/** A built checkout's CLI: its bundle, or dist/cli/main.js for a build from before the bundle. @param {string} dir */
/** @type {string} */
let tmp = '';

/** @param {string} name @param {string} main @returns {(port: number) => string[]} */
const gateway = (name, main) => (port) => {
  const config = path.join(tmp, `${name}.mcp.json`);
  writeFileSync(config, JSON.stringify({ mcpServers: { echo: { command: process.execPath, args: [ECHO, '--stdio'] } } }));
  return [main, 'serve', '--http', '--host', '127.0.0.1', '--port', String(port), '--config', config, '--data-dir', path.join(tmp, `${name}-data`)];
};

/** @type {Record<string, () => {args: (port: number) => string[], env?: Record<string, string>, tool: string}>} */
const KNOWN = {
  direct: () => ({ args: (port) => [ECHO, '--http', '--port', String(port), '--exit-on-stdin-close'], tool: 'echo' }),
  default: () => ({ args: gateway('default', MAIN), env: { SWITCHBOARD_SEMI_SPACE_CAP_MB: '' }, tool: 'echo_echo' }),
  // V8's own growth of the young generation (the HTTP face's cap off: young-generation-cap.ts).
  nocap: () => ({ args: gateway('nocap', MAIN), env: { SWITCHBOARD_SEMI_SPACE_CAP_MB: '0' }, tool: 'echo_echo' }),
  // The young generation sized by node's own flag instead, with the cap off.
  semi4: () => ({ args: (port) => ['--max-semi-space-size=4', ...gateway('semi4', MAIN)(port)], env: { SWITCHBOARD_SEMI_SPACE_CAP_MB: '0' }, tool: 'echo_echo' }),
  semi8: () => ({ args: (port) => ['--max-semi-space-size=8', ...gateway('semi8', MAIN)(port)], env: { SWITCHBOARD_SEMI_SPACE_CAP_MB: '0' }, tool: 'echo_echo' }),
  baseline: () => {
    if (!values.baseline) throw new Error('the baseline variant needs --baseline DIR (a built checkout: DIR/dist/bundle/main.js, or DIR/dist/cli/main.js before the bundle)');
    return { args: gateway('baseline', builtMain(values.baseline)), tool: 'echo_echo' };
  },
};
const names = (values.variants ?? 'direct,default').split(',');
for (const name of names) if (!KNOWN[name]) throw new Error(`unknown variant ${name}; known: ${Object.keys(KNOWN).join(', ')}`);
tmp = mkdtempSync(path.join(os.tmpdir(), 'switchboard-ab-http-'));
// Interrupted: every process this run started is stopped by PID before it exits.
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
  process.once(signal, () => {
    killAllStarted();
    rmSync(tmp, { recursive: true, force: true });
    process.exit(130);
  });
}

/** CPU ms (user + system) of one process. @param {number} pid */
function cpuMs(pid) {
  const { user, system } = processCpuMs(pid);
  return user + system;
}
/** @param {number[]} xs */
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * @typedef {object} Variant
 * @property {string} name
 * @property {number} pid
 * @property {string} tool
 * @property {import('./lib/client.mjs').Session[]} sessions the first one makes the sequential calls
 * @property {number[]} p50 @property {number[]} p99 @property {number[]} max @property {number[]} cpu @property {number[]} throughput
 * @property {() => Promise<void>} stop
 */
/** @type {Variant[]} */
const variants = [];
try {
  for (const name of names) {
    const spec = KNOWN[name]();
    const port = await freePort();
    const server = await startServer({ command: process.execPath, args: spec.args(port), env: { ...process.env, ...spec.env }, cwd: tmp, port });
    const url = `http://127.0.0.1:${port}/mcp`;
    const sessions = [];
    for (let i = 0; i < SESSIONS; i++) sessions.push((await openSession({ kind: 'http', url })).session);
    variants.push({ name, pid: server.pid, tool: spec.tool, sessions, p50: [], p99: [], max: [], cpu: [], throughput: [], stop: server.stop });
  }
  process.stderr.write(`warming ${names.join(', ')} with ${WARMUP} calls each\n`);
  for (const v of variants) {
    for (let i = 0; i < WARMUP; i++) await v.sessions[0].call(v.tool, { message: 'hello' });
    for (const session of v.sessions.slice(1)) await session.call(v.tool, { message: 'hello' });
  }

  for (let round = 0; round < ROUNDS; round++) {
    const order = variants.map((_, i) => variants[(i + round) % variants.length]);
    if (round % 2) order.reverse();
    for (const v of order) {
      const times = [];
      const cpu0 = cpuMs(v.pid);
      for (let i = 0; i < CALLS; i++) {
        const t0 = performance.now();
        await v.sessions[0].call(v.tool, { message: 'hello' });
        times.push(performance.now() - t0);
      }
      v.cpu.push(((cpuMs(v.pid) - cpu0) * 1000) / CALLS);
      v.p50.push(median(times));
      times.sort((a, b) => a - b);
      v.p99.push(times[Math.floor(times.length * 0.99)]);
      v.max.push(times[times.length - 1]);
      let done = 0;
      const began = performance.now();
      const until = began + SECONDS * 1000;
      await Promise.all(
        v.sessions.map(async (session) => {
          while (performance.now() < until) {
            await session.call(v.tool, { message: 'hello' });
            done++;
          }
        }),
      );
      v.throughput.push((done * 1000) / (performance.now() - began));
    }
    process.stderr.write(`round ${round + 1}/${ROUNDS} done\n`);
  }

  const direct = variants.find((v) => v.name === 'direct');
  const { cpu, node, cores } = machineInfo();
  console.log(`A/B HTTP, ${ROUNDS} rounds x (${CALLS} sequential calls, then ${SECONDS} s at ${SESSIONS} sessions) per variant after ${WARMUP} warm-up calls; ${cpu}, ${cores} cores, Node ${node}, load ${loadAverage()} at the end`);
  console.log('| variant | p50 ms | × direct | p99 ms | max ms | CPU µs a call (listening process) | calls/s at ' + SESSIONS + ' sessions | RSS MB at the end |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const v of variants) {
    const p50 = median(v.p50);
    const ratio = direct ? `${(p50 / median(direct.p50)).toFixed(2)}×` : '–';
    console.log(`| ${v.name} | ${p50.toFixed(3)} | ${ratio} | ${median(v.p99).toFixed(2)} | ${median(v.max).toFixed(1)} | ${Math.round(median(v.cpu))} | ${Math.round(median(v.throughput))} | ${(statusKb(v.pid, 'VmRSS') / 1024).toFixed(1)} |`);
  }
} finally {
  for (const v of variants) {
    await Promise.all(v.sessions.map((s) => s.close()));
    await v.stop();
  }
  killAllStarted();
  rmSync(tmp, { recursive: true, force: true });
}
