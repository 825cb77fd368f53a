#!/usr/bin/env node
// @ts-check
// How soon a stdio session's first call is answered (issue 17: within 1.5x of the direct server's
// own start). Per round, interleaved and the order reversed every other round: spawn the bench echo
// server directly, initialize, call `echo`; spawn `switchboard serve --stdio` in front of the same
// server, initialize, call `echo_echo`, once with a fresh data dir (first run: nothing cached) and
// once with the data dir of the previous rounds (every later start). Reports the medians of spawn
// to initialize answered and spawn to first call answered, and ratios to direct. On Node 22+ the
// gateway's code cache (src/cli/compile-cache.ts) is fresh with the fresh data dir and kept with the
// reused one; --no-cache-variant adds the reused data dir with the cache off (SWITCHBOARD_COMPILE_CACHE=0).
// --baseline DIR adds another checkout's build (DIR/bin/switchboard.js), data dir reused, as an A/B.
// Node 22 here: run this file with that node (process.execPath starts every process).
//
//   node bench/first-call.mjs [--rounds N] [--no-cache-variant] [--baseline DIR]
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT_DIR, rootImport } from './lib/root-modules.mjs';

const { Client } = await rootImport('@modelcontextprotocol/client');
const { StdioClientTransport } = await rootImport('@modelcontextprotocol/client', './stdio');
const { z } = await rootImport('zod');
const ANY = z.any();

const { values } = parseArgs({ options: { rounds: { type: 'string' }, 'no-cache-variant': { type: 'boolean' }, baseline: { type: 'string' } } });
const ROUNDS = Number(values.rounds ?? 15);
const BASELINE = values.baseline;
const tmp = mkdtempSync(path.join(os.tmpdir(), 'switchboard-first-call-'));
const ECHO = [path.join(ROOT_DIR, 'bench/echo-server.mjs'), '--stdio'];
const MAIN = path.join(ROOT_DIR, 'bin/switchboard.js'); // the command users run
const config = path.join(tmp, '.mcp.json');
writeFileSync(config, JSON.stringify({ mcpServers: { echo: { command: process.execPath, args: ECHO } } }));
const warmDataDir = path.join(tmp, 'warm-data');

const warmCache = path.join(tmp, 'warm-cache');
/** Where the gateway keeps V8's code cache (Node 22+, src/cli/compile-cache.ts): fresh, kept between starts, or none. */
/** @returns {Record<string, string>} */
const cacheEnv = (/** @type {string | undefined} */ dir) => (dir ? { XDG_CACHE_HOME: dir } : { SWITCHBOARD_COMPILE_CACHE: '0' });
/** @type {Record<string, (round: number) => {args: string[], tool: string, env?: Record<string, string>}>} */
const VARIANTS = {
  direct: () => ({ args: ECHO, tool: 'echo' }),
  'switchboard, fresh data dir': (round) => ({ args: [MAIN, 'serve', '--stdio', '--config', config, '--data-dir', path.join(tmp, `cold-${round}`)], tool: 'echo_echo', env: cacheEnv(path.join(tmp, `cold-cache-${round}`)) }),
  'switchboard, data dir reused': () => ({ args: [MAIN, 'serve', '--stdio', '--config', config, '--data-dir', warmDataDir], tool: 'echo_echo', env: cacheEnv(warmCache) }),
  ...(BASELINE && {
    [`baseline ${BASELINE}, data dir reused`]: () => ({ args: [path.resolve(BASELINE, 'bin/switchboard.js'), 'serve', '--stdio', '--config', config, '--data-dir', path.join(tmp, 'baseline-data')], tool: 'echo_echo', env: cacheEnv(path.join(tmp, 'baseline-cache')) }),
  }),
  ...(values['no-cache-variant'] && {
    'switchboard, data dir reused, no code cache': () => ({ args: [MAIN, 'serve', '--stdio', '--config', config, '--data-dir', warmDataDir], tool: 'echo_echo', env: cacheEnv(undefined) }),
  }),
};
const names = Object.keys(VARIANTS);
/** @type {Record<string, {init: number[], call: number[]}>} */
const samples = Object.fromEntries(names.map((n) => [n, { init: [], call: [] }]));

/** One start: spawn, initialize, first call; milliseconds from spawn. @param {string} name @param {number} round */
async function start(name, round) {
  const spec = VARIANTS[name](round);
  const t0 = performance.now();
  const transport = new StdioClientTransport({ command: process.execPath, args: spec.args, stderr: 'ignore', env: /** @type {Record<string, string>} */ ({ ...process.env, ...spec.env }) }); // process.env's values are strings
  const client = new Client({ name: 'first-call', version: '1' }, { capabilities: {} });
  await client.connect(transport);
  const init = performance.now() - t0;
  const result = /** @type {{isError?: boolean}} */ (await client.request({ method: 'tools/call', params: { name: spec.tool, arguments: { message: 'hello' } } }, ANY));
  const call = performance.now() - t0;
  if (result.isError) throw new Error(`${name}: the first call failed: ${JSON.stringify(result)}`);
  await client.close();
  return { init, call };
}

// One unmeasured start of each: the data dir to reuse gets its catalog, and the OS its file cache.
for (const name of names) await start(name, -1);
for (let round = 0; round < ROUNDS; round++) {
  const order = round % 2 ? [...names].reverse() : names;
  for (const name of order) {
    const { init, call } = await start(name, round);
    samples[name].init.push(init);
    samples[name].call.push(call);
  }
  process.stderr.write(`round ${round + 1}/${ROUNDS}\n`);
}
rmSync(tmp, { recursive: true, force: true });

/** @param {number[]} xs */
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const direct = median(samples.direct.call);
const lines = [
  `first call over stdio, ${ROUNDS} interleaved starts per variant; Node ${process.version}, ${os.cpus().length} cores, load ${os.loadavg().map((l) => l.toFixed(1)).join(' ')} at the end`,
  '| variant | spawn to initialize answered, ms (median) | spawn to first call answered, ms (median) | × direct start |',
  '|---|---:|---:|---:|',
  ...names.map((n) => `| ${n} | ${median(samples[n].init).toFixed(0)} | ${median(samples[n].call).toFixed(0)} | ${(median(samples[n].call) / direct).toFixed(2)}× |`),
];
process.stdout.write(`${lines.join('\n')}\n`);
