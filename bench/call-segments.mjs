#!/usr/bin/env node
// @ts-check
// Where a forwarded call's time goes, segment by segment: the Switchboard stdio face and the JSON
// relay floor (bench/relay-floor.mjs --json) in front of the same echo server, each loaded with
// lib/call-segments-preload.mjs, which stamps when lines arrive and leave on the relay's pipes on the
// clock every process shares; the client stamps its own send and receipt. Per call:
//   client → relay   the client's write until the relay emits the line (waking, reading);
//   relay, request   the relay's JavaScript until it begins the write to the server;
//   write to server  that write call (the system call, waking the server, Node's stream code);
//   server's turn    from there until the relay emits the server's answer (the server's whole turn,
//                    the relay waking and reading);
//   relay, answer    the relay's JavaScript until it begins the write to the client;
//   to the client    from there until the client has the answer.
// Fresh processes each round, the two targets alternating; medians of each round, then the median
// over rounds. `--pause-us` makes the client busy-wait between an answer and its next request, as an
// SDK client's own work per call does, so the relay sleeps between calls (0: the next request at once).
//
//   node bench/call-segments.mjs [--calls N] [--rounds N] [--pause-us N]
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { lineClient } from './lib/line-client.mjs';
import { median } from './lib/stats.mjs';
import { ROOT_DIR } from './lib/root-modules.mjs';

const { values } = parseArgs({ options: { calls: { type: 'string' }, rounds: { type: 'string' }, 'pause-us': { type: 'string' } } });
const CALLS = Math.min(Number(values.calls ?? 20_000), 200_000);
const KEEP = Math.min(10_000, Math.floor(CALLS / 2)); // the last half at most: the JIT has settled by then
const ROUNDS = Math.min(Number(values.rounds ?? 3), 50);
const PAUSE_MS = Number(values['pause-us'] ?? 0) / 1000;
const PRELOAD = path.join(ROOT_DIR, 'bench/lib/call-segments-preload.mjs');
const ECHO = [path.join(ROOT_DIR, 'bench/echo-server.mjs'), '--stdio'];
const tmp = mkdtempSync(path.join(os.tmpdir(), 'switchboard-segments-'));
const config = path.join(tmp, '.mcp.json');
writeFileSync(config, JSON.stringify({ mcpServers: { echo: { command: process.execPath, args: ECHO } } }));

const TARGETS = [
  { name: 'JSON relay floor', tool: 'echo', args: () => [path.join(ROOT_DIR, 'bench/relay-floor.mjs'), '--json', '--', process.execPath, ...ECHO] },
  { name: 'Switchboard stdio', tool: 'echo_echo', args: (/** @type {number} */ round) => [path.join(ROOT_DIR, 'dist/bundle/main.js'), 'serve', '--stdio', '--config', config, '--data-dir', path.join(tmp, `data-${round}`)] },
];
const SEGMENTS = ['client → relay', 'relay, request', 'write to server', "server's turn", 'relay, answer', 'to the client', 'total'];
const nowUs = () => Number(process.hrtime.bigint() % 1_000_000_000_000_000n) / 1000; // as the preload's clock

/** One fresh run of a target: each kept call's segments in µs. @param {typeof TARGETS[number]} target @param {number} round */
async function run(target, round) {
  const out = path.join(tmp, `stamps-${round}-${target.tool}.json`);
  const client = await lineClient(['--import', PRELOAD, ...target.args(round)], { env: { CALL_SEGMENTS_OUT: out, CALL_SEGMENTS_KEEP: String(KEEP) }, stamp: nowUs });
  await client.request('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'call-segments', version: '1' } });
  client.notify('notifications/initialized');
  const sent = new Float64Array(CALLS);
  const got = new Float64Array(CALLS);
  const params = { name: target.tool, arguments: { message: 'hello' } };
  for (let i = 0; i < CALLS; i++) {
    if (PAUSE_MS > 0) for (const until = performance.now() + PAUSE_MS; performance.now() < until; );
    const answer = await client.request('tools/call', params);
    if (answer.message.error) throw new Error(`${target.name}: tools/call failed: ${JSON.stringify(answer.message.error).slice(0, 300)}`);
    sent[i] = answer.sent;
    got[i] = answer.received;
  }
  await client.end(); // an orderly exit: the preload writes its stamps
  /** @type {Record<string, number[]>} */
  const stamps = JSON.parse(readFileSync(out, 'utf8'));
  const first = CALLS - KEEP;
  /** @type {number[][]} */
  const rows = SEGMENTS.map(() => []);
  let unordered = 0;
  for (let k = 0; k < KEEP; k++) {
    const s = sent[first + k], g = got[first + k];
    const [clientIn, outBegin, outEnd, serverIn, answerBegin] = ['clientIn', 'serverOutBegin', 'serverOutEnd', 'serverIn', 'clientOutBegin'].map((name) => stamps[name][stamps[name].length - KEEP + k]);
    // Stamps of one call follow each other; anything else means a line of other traffic was counted.
    if (!(s <= clientIn && clientIn <= outBegin && outBegin <= outEnd && outEnd <= serverIn && serverIn <= answerBegin && answerBegin <= g)) unordered++;
    [clientIn - s, outBegin - clientIn, outEnd - outBegin, serverIn - outEnd, answerBegin - serverIn, g - answerBegin, g - s].forEach((v, i) => rows[i].push(v));
  }
  if (unordered > KEEP / 100) throw new Error(`${target.name}: ${unordered} of ${KEEP} calls' stamps out of order (other traffic on the pipes?)`);
  return rows.map((xs) => /** @type {number} */ (median(xs)));
}

try {
  /** @type {number[][][]} per target, per round, per segment */
  const results = TARGETS.map(() => []);
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? [0, 1] : [1, 0];
    for (const t of order) {
      process.stderr.write(`round ${round + 1}/${ROUNDS}: ${TARGETS[t].name}\n`);
      results[t].push(await run(TARGETS[t], round));
    }
  }
  const at = (/** @type {number} */ t, /** @type {number} */ s) => /** @type {number} */ (median(results[t].map((r) => r[s])));
  const load = os.loadavg().map((l) => l.toFixed(1)).join(' ');
  console.log(`call segments over stdio, ${ROUNDS} rounds of ${CALLS} sequential calls (medians of the last ${KEEP}), client pause ${PAUSE_MS * 1000} µs; Node ${process.version}, ${os.cpus().length} cores, load ${load}`);
  console.log(`| segment (µs) | ${TARGETS.map((t) => t.name).join(' | ')} | difference |`);
  console.log(`|---|${TARGETS.map(() => '---:').join('|')}|---:|`);
  for (const [s, name] of SEGMENTS.entries()) console.log(`| ${name} | ${TARGETS.map((_, t) => at(t, s).toFixed(1)).join(' | ')} | ${(at(1, s) - at(0, s)).toFixed(1)} |`);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
