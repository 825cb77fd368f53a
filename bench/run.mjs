#!/usr/bin/env node
// @ts-check
// Switchboard's benchmark harness (`npm run bench`). See bench/README.md.
//
//   npm run bench [-- --quick] [--json <path>] [--rounds N] [--targets a,b,...] [--peers DIR] [--no-build]
//   npm run bench -- --gateway-rss     the gateway's own RSS (children excluded), stdio and HTTP face
//   npm run bench -- --profile         CPU profile of the gateway under the sequential workload
//   npm run bench -- --startup         20 servers: time to the first tools/list (cold, warm cache), RSS
//   npm run bench -- --recording       what recording calls in the store costs (on vs off, same run)
//   npm run bench -- --request-log     what --log-requests costs per call (on vs off, same run)
//
// The table goes to stdout, progress to stderr. Targets are measured interleaved with their direct
// baseline (direct, A, direct, B, ...), the order reversed every other round, and the medians of the
// rounds reported with ratios against the direct baseline of the same run.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildCli } from './lib/built-cli.mjs';
import { ROOT_DIR } from './lib/root-modules.mjs';
import { killAllStarted } from './lib/procs.mjs';
import { snapshotGateway } from './lib/snapshot.mjs';

const BENCH_DIR = path.join(ROOT_DIR, 'bench');

const USAGE = `usage: npm run bench -- [options]
  --quick                 one short round (under 3 minutes on 2 cores)
  --rounds N              rounds (default 3, or 1 with --quick)
  --targets a,b           only these targets (their direct baselines are added)
  --peers DIR             where hypertool-mcp and the 1mcp agent were built from source (default
                          $SWITCHBOARD_BENCH_PEERS): adds them as stdio targets
  --json PATH             also write the results as JSON
  --gateway-log-level L   Switchboard's log level in the measured runs (default info, the product's default)
  --no-build              do not rebuild dist/ even if src/ is newer
  --gateway-rss           report the gateway's own RSS (children excluded) and exit
  --profile               CPU-profile the gateway under the sequential workload and exit
  --profile-calls N       calls in the profiled workload (default 20000)
  --profile-faces F       stdio, http or stdio,http (default)
  --startup               20 stdio servers: start to first tools/list, cold and warm cache, peak RSS
  --recording             recording calls on vs off over stdio, interleaved rounds (about 2 minutes)
  --recording-calls N     sequential calls per block (default 400; --rounds sets the rounds, default 16)
  --recording-pairs N     (on, off) pairs of blocks per round (default 10)
  --recording-processes N gateway processes per variant (default 2)
  --recording-aa          A/A calibration: both variants record nothing (what the statistics show for no cost)
  --request-log           --log-requests on vs off over stdio, as --recording (takes its --recording-* and --rounds)
  --help`;

const T0 = performance.now();
/** @param {string} line */
const progress = (line) => process.stderr.write(`[bench ${((performance.now() - T0) / 1000).toFixed(1).padStart(5)}s] ${line}\n`);

function parse() {
  try {
    return parseArgs({
      options: {
        quick: { type: 'boolean' },
        rounds: { type: 'string' },
        targets: { type: 'string' },
        peers: { type: 'string' },
        json: { type: 'string' },
        'gateway-log-level': { type: 'string' },
        'no-build': { type: 'boolean' },
        'gateway-rss': { type: 'boolean' },
        profile: { type: 'boolean' },
        'profile-calls': { type: 'string' },
        'profile-faces': { type: 'string' },
        startup: { type: 'boolean' },
        recording: { type: 'boolean' },
        'request-log': { type: 'boolean' },
        'recording-aa': { type: 'boolean' },
        'recording-calls': { type: 'string' },
        'recording-processes': { type: 'string' },
        'recording-pairs': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }).values;
  } catch (error) {
    process.stderr.write(`${/** @type {Error} */ (error).message}\n${USAGE}\n`);
    process.exit(2);
  }
}

/**
 * An integer option within bounds, or its default when absent; exits with the usage otherwise.
 * @param {string | undefined} value @param {number} fallback @param {number} min @param {number} max @param {string} name
 */
function intOption(value, fallback, min, max, name) {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (Number.isInteger(n) && n >= min && n <= max) return n;
  process.stderr.write(`${name} must be an integer ${min}-${max}\n${USAGE}\n`);
  process.exit(2);
}

/** Installs the peers into bench/node_modules when it is missing (a failure only skips the peers). */
function ensurePeers() {
  if (existsSync(path.join(BENCH_DIR, 'node_modules'))) return;
  progress('bench/node_modules is missing: npm install --prefix bench --no-audit --no-fund');
  const npmCli = process.env.npm_execpath;
  const [command, args] = npmCli && npmCli.endsWith('.js') ? [process.execPath, [npmCli]] : ['npm', []];
  const result = spawnSync(command, [...args, 'install', '--prefix', BENCH_DIR, '--no-audit', '--no-fund'], {
    cwd: ROOT_DIR,
    stdio: ['ignore', 2, 2],
    timeout: 300_000,
  });
  if (result.status !== 0) progress(`npm install failed (${result.error?.message ?? `exit ${result.status}`}); peers will be reported as skipped`);
}

/** @param {string} dir @returns {number} newest mtime of a .ts file under dir */
function newestSource(dir) {
  let newest = 0;
  const stack = [dir];
  for (let i = 0; i < 10_000 && stack.length; i++) {
    const current = /** @type {string} */ (stack.pop());
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) stack.push(full);
      else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(full).mtimeMs);
    }
  }
  return newest;
}

/** Builds dist/ and its bundle when missing or older than src/ (the bench measures the current source). */
function ensureBuild() {
  const main = path.join(ROOT_DIR, 'dist', 'bundle', 'main.js');
  const stale = !existsSync(main) || newestSource(path.join(ROOT_DIR, 'src')) > statSync(main).mtimeMs;
  if (!stale) return;
  progress('building the gateway (npm run build:cli: tsc, then scripts/bundle.mjs)');
  if (!buildCli(ROOT_DIR)) {
    progress('the build failed: fix src/ or pass --no-build to measure the existing dist/');
    process.exit(1);
  }
}

async function main() {
  const options = parse();
  if (options.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if (!options['no-build']) ensureBuild();
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'switchboard-bench-'));
  const cleanup = () => {
    killAllStarted();
    rmSync(tmp, { recursive: true, force: true });
  };
  for (const sig of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
    process.once(sig, () => {
      progress(`${sig}: stopping every process this run started`);
      cleanup();
      process.exit(130);
    });
  }
  const level = options['gateway-log-level'] ?? 'info';
  try {
    const gateway = snapshotGateway(tmp);
    if (gateway) progress(`measuring the gateway built from ${gateway.revision.commit ?? 'an unknown commit'}${gateway.revision.src_dirty ? ' with uncommitted changes in src/' : ''} (a copy of dist/ in ${gateway.root})`);
    if ((options['gateway-rss'] || options.profile || options.startup || options.recording || options['request-log']) && !gateway) {
      progress('dist/bundle/main.js is missing: build the gateway first (npm run build)');
      process.exitCode = 1;
      return;
    }
    if (options['gateway-rss'] && gateway) {
      const { gatewayRss } = await import('./lib/gateway-rss.mjs');
      await gatewayRss({ tmp, gatewayMain: gateway.main, progress, json: options.json });
      return;
    }
    if (options.startup && gateway) {
      const { startupBench } = await import('./lib/startup.mjs');
      await startupBench({ tmp, gatewayMain: gateway.main, progress, json: options.json });
      return;
    }
    if (options.recording && gateway) {
      const { recordingBench } = await import('./lib/recording.mjs');
      await recordingBench({
        tmp,
        gateway,
        progress,
        rounds: intOption(options.rounds, 16, 2, 100, '--rounds'),
        calls: intOption(options['recording-calls'], 400, 50, 100_000, '--recording-calls'),
        pairs: intOption(options['recording-pairs'], 10, 1, 100, '--recording-pairs'),
        processes: intOption(options['recording-processes'], 2, 1, 8, '--recording-processes'),
        warmup: 8000,
        microOps: 20_000,
        json: options.json,
        aa: Boolean(options['recording-aa']),
      });
      return;
    }
    if (options['request-log'] && gateway) {
      const { requestLogBench } = await import('./lib/request-log.mjs');
      await requestLogBench({
        tmp,
        gateway,
        progress,
        rounds: intOption(options.rounds, 16, 2, 100, '--rounds'),
        calls: intOption(options['recording-calls'], 400, 50, 100_000, '--recording-calls'),
        pairs: intOption(options['recording-pairs'], 10, 1, 100, '--recording-pairs'),
        processes: intOption(options['recording-processes'], 2, 1, 8, '--recording-processes'),
        warmup: 8000,
        microOps: 20_000,
        json: options.json,
      });
      return;
    }
    if (options.profile && gateway) {
      const { profileGateway } = await import('./lib/profile.mjs');
      const calls = Number(options['profile-calls'] ?? '20000');
      await profileGateway({ tmp, gateway, progress, calls: Number.isInteger(calls) && calls > 0 ? Math.min(calls, 1_000_000) : 20_000, json: options.json, faces: options['profile-faces']?.split(',') });
      return;
    }
    ensurePeers();
    // The stdio peers' targets read the folder from the environment (lib/stdio-peers.mjs).
    if (options.peers) process.env.SWITCHBOARD_BENCH_PEERS = path.resolve(options.peers);
    const { runBench } = await import('./lib/bench.mjs');
    const quick = options.quick === true;
    const rounds = options.rounds !== undefined ? Number(options.rounds) : quick ? 1 : 3;
    if (!Number.isInteger(rounds) || rounds < 1 || rounds > 20) {
      process.stderr.write(`--rounds must be an integer 1-20\n${USAGE}\n`);
      process.exit(2);
    }
    const only = options.targets?.split(',').map((s) => s.trim()).filter(Boolean);
    const results = await runBench({ quick, rounds, only, tmp, gatewayLogLevel: level, gateway, progress });
    process.stdout.write(`${results.text}\n`);
    if (options.json) {
      const file = path.resolve(options.json);
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, `${JSON.stringify(results.json, null, 2)}\n`);
      progress(`wrote ${file}`);
    }
  } finally {
    cleanup();
  }
  if (process.env.BENCH_DEBUG_HANDLES) progress(`still active: ${process.getActiveResourcesInfo().join(', ')}`);
}

const hardLimit = setTimeout(() => {
  progress('the run exceeded its hard time limit (90 minutes); stopping every process it started');
  killAllStarted();
  process.exit(1);
}, 90 * 60_000);
hardLimit.unref();

main().catch((error) => {
  progress(`failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  killAllStarted();
  process.exit(1);
});

