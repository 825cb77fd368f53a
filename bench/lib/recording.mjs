// @ts-check
// `npm run bench -- --recording`: what recording every tool call in the metrics store costs (issue 5:
// at most 3 % of sequential-call throughput). Two parts, one run:
//
// 1. The record path in isolation, in this process, against the run's copy of dist/: building the
//    call record, `approximateSize` of the result, prom-client's `observeCall`, the SQLite insert,
//    and `Gateway.recordCall` as a whole (recording on, and off: Prometheus only).
// 2. The stdio face end to end: gateways with recording on and off (`"recordCalls": false`), each
//    its own process tree (gateway + stdio echo server) spawned once and warmed up, then many short
//    rounds of sequential `tools/call echo`, every variant once per round, the order flipping.
//    Per round and process: wall time, and the gateway process's own CPU time (all its threads,
//    from /proc/<pid>/task/*/schedstat in ns, and utime+stime from /proc/<pid>/stat in clock
//    ticks). CPU time is charged to the gateway whatever else runs on the machine, so it is far
//    steadier than wall time here.
//
// The cost is reported as 1 - throughput_on / throughput_off (median of the per-round ratios, with
// the interquartile range and a bootstrap 95 % confidence interval of that median), and as CPU µs
// per call (on minus off, per round, the same statistics).
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { openSession } from './client.mjs';
import { machineInfo, loadAverage, gitRevision } from './report.mjs';
import { bootstrapMedianCi, quantile, round } from './stats.mjs';
import { ECHO_SERVER } from './targets.mjs';
import { processCpuMs } from './procs.mjs';

const NODE = process.execPath;
const ECHO_ARGS = { message: 'hello' };

/**
 * @typedef {object} RecordingOptions
 * @property {string} tmp the run's scratch folder
 * @property {{root: string, main: string, revision: {commit: string | null, src_dirty: boolean | null}}} gateway the run's copy of dist/
 * @property {(line: string) => void} progress
 * @property {number} rounds
 * @property {number} calls sequential calls per block
 * @property {number} pairs (on, off) pairs of blocks per round
 * @property {number} processes gateway processes per variant
 * @property {number} warmup calls per process before the first round
 * @property {number} microOps operations per micro-benchmark
 * @property {string} [json] also write the results here
 * @property {boolean} [aa] A/A calibration: the "on" gateways record nothing either
 */

// ---------------------------------------------------------------------------------------------
// CPU time of one process, from /proc

/** CPU ns of every thread of `pid` so far (sum_exec_runtime), or null when schedstat is missing. @param {number} pid */
function schedstatNs(pid) {
  try {
    let ns = 0;
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
      } catch {
        // a thread that ended between listing and reading: its time is in no file any more
      }
    }
    return ns;
  } catch {
    return null;
  }
}

/** utime + stime of `pid` (all threads) in ms, clock-tick resolution. @param {number} pid */
function statCpuMs(pid) {
  const { user, system } = processCpuMs(pid);
  return user + system;
}

/** @param {number} pid */
function cpuSnapshot(pid) {
  return { ns: schedstatNs(pid), statMs: statCpuMs(pid) };
}

// ---------------------------------------------------------------------------------------------
// Part 1: the record path in isolation

/**
 * Times `op` over `n` runs after a warm-up: wall and CPU µs per run (this process), p99 wall, and
 * how many single runs took over 0.5 ms (a WAL checkpoint's fsync shows up there).
 * @param {number} n
 * @param {(i: number) => void} op
 */
export function timeOp(n, op) {
  for (let i = 0; i < Math.min(n, 5000); i++) op(i);
  const each = new Float64Array(n);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < n; i++) {
    const start = performance.now();
    op(i);
    each[i] = performance.now() - start;
  }
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  let slow = 0;
  let slowMs = 0;
  for (const t of each) {
    if (t > 0.5) {
      slow++;
      slowMs += t;
    }
  }
  return {
    wall_us: round((wallMs * 1000) / n, 2),
    cpu_us: round((cpu.user + cpu.system) / n, 2),
    p50_us: round((quantile(each, 0.5) ?? 0) * 1000, 2),
    p99_us: round((quantile(each, 0.99) ?? 0) * 1000, 2),
    over_half_ms: slow,
    over_half_ms_total_ms: round(slowMs, 1),
  };
}

/**
 * The record path, piece by piece, against the run's copy of dist/ and a fresh store.
 * @param {{tmp: string, root: string, ops: number}} options
 */
async function microBench({ tmp, root, ops }) {
  const dist = (/** @type {string} */ file) => import(pathToFileURL(path.join(root, 'dist', file)).href);
  const [{ openDatabase }, { createMetricsRegistry }, { approximateSize }, { Gateway }] = await Promise.all([
    dist('store/database.js'),
    dist('metrics/prometheus.js'),
    dist('gateway/call-outcome.js'),
    dist('gateway/gateway.js'),
  ]);
  const dataDir = mkdtempSync(path.join(tmp, 'micro-'));
  const store = openDatabase(dataDir);
  // As `serve` opens it: calls appended to the journal, inserted by a timer.
  const journalDir = mkdtempSync(path.join(tmp, 'micro-journal-'));
  const journaled = openDatabase(journalDir, { callJournal: { onError: (/** @type {string} */ m) => process.stderr.write(`call journal: ${m}\n`) } });
  const metrics = createMetricsRegistry({ defaultMetrics: false });
  const recording = new Gateway({}, { store, metrics });
  const recordingJournaled = new Gateway({}, { store: journaled, metrics });
  const promOnly = new Gateway({ recordCalls: false }, { store, metrics });
  const echoResult = { content: [{ type: 'text', text: 'hello' }] };
  const bigResult = { content: [{ type: 'text', text: 'x'.repeat(65_536) }] };
  /** As forward.ts builds it for an ok call. @param {any} result */
  const record = (result) => ({
    server: 'echo',
    tool: 'echo',
    session: '0d6c1c0e-6b2a-4a43-9d6c-3f0b6f9e2a11',
    startedAt: Date.now(),
    durationMs: 0.21,
    outcome: 'ok',
    resultBytes: approximateSize(result),
  });
  try {
    const results = {
      approximate_size_echo: timeOp(ops, () => approximateSize(echoResult)),
      approximate_size_64k: timeOp(ops, () => approximateSize(bigResult)),
      prometheus_observe: timeOp(ops, () => metrics.observeCall('echo', 'echo', 'ok', 0.21)),
      sqlite_insert: timeOp(ops, () => store.metrics.recordCall(record(echoResult))),
      record_path_on: timeOp(ops, () => recording.recordCall(record(echoResult))),
      journal_append: timeOp(ops, () => journaled.metrics.recordCall(record(echoResult))),
      record_path_on_journaled: timeOp(ops, () => recordingJournaled.recordCall(record(echoResult))),
      record_path_off: timeOp(ops, () => promOnly.recordCall(record(echoResult))),
    };
    return {
      ...results,
      journal: { mode: journaled.metrics.mode, write_reason: journaled.metrics.writeReason ?? null },
      pragmas: {
        journal_mode: store.db.pragma('journal_mode', { simple: true }),
        synchronous: store.db.pragma('synchronous', { simple: true }),
        wal_autocheckpoint: store.db.pragma('wal_autocheckpoint', { simple: true }),
      },
    };
  } finally {
    await recording.close();
    await recordingJournaled.close();
    await promOnly.close();
    store.close();
    journaled.close();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(journalDir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// Part 2: end to end, recording on and off, interleaved

/**
 * @typedef {{variant: 'on' | 'off', index: number, session: import('./client.mjs').Session, pid: number}} Gw
 * @typedef {{round: number, pair: number, variant: 'on' | 'off', index: number, calls: number, wall_ms: number, cpu_ns: number | null, cpu_stat_ms: number}} Sample
 */

/** The settings of a variant: recording off for "off" (and for both in an A/A run). @param {'on' | 'off'} variant @param {boolean} aa */
const recordingSettings = (variant, aa) => (variant === 'off' || aa ? { recordCalls: false } : undefined);

/**
 * @param {string} tmp @param {'on' | 'off'} variant @param {number} index @param {string} main @param {boolean} aa both variants record nothing (A/A calibration)
 * @param {(variant: 'on' | 'off', aa: boolean) => Record<string, unknown> | undefined} [settingsFor] the "switchboard" block of each variant (default: recording on vs off)
 */
async function startGateway(tmp, variant, index, main, aa, settingsFor = recordingSettings) {
  const config = path.join(tmp, `recording-${variant}.mcp.json`);
  const echo = { command: NODE, args: [ECHO_SERVER, '--stdio'] };
  const settings = settingsFor(variant, aa);
  writeFileSync(config, JSON.stringify({ mcpServers: { echo }, ...(settings && { switchboard: settings }) }));
  const dataDir = path.join(tmp, `recording-data-${variant}-${index}`);
  const args = [main, 'serve', '--log-level', 'warn', '--data-dir', dataDir, '--stdio', '--config', config];
  const { session } = await openSession({ kind: 'stdio', command: NODE, args });
  if (!session.pid) throw new Error('the stdio client reported no gateway PID');
  const tools = await session.listTools();
  if (!tools.tools.some((t) => t.name === 'echo_echo')) throw new Error(`gateway ${variant}#${index} lists no echo_echo (got ${tools.tools.map((t) => t.name).join(', ')})`);
  return { variant, index, session, pid: session.pid };
}

/** @param {Gw} gw @param {number} calls */
export async function callsInARow(gw, calls) {
  for (let i = 0; i < calls; i++) await gw.session.call('echo_echo', ECHO_ARGS);
}

/** @param {Gw} gw @param {number} round @param {number} pair @param {number} calls @returns {Promise<Sample>} */
export async function measure(gw, round, pair, calls) {
  const before = cpuSnapshot(gw.pid);
  const t0 = performance.now();
  await callsInARow(gw, calls);
  const wall = performance.now() - t0;
  const after = cpuSnapshot(gw.pid);
  return {
    round,
    pair,
    variant: gw.variant,
    index: gw.index,
    calls,
    wall_ms: wall,
    cpu_ns: before.ns === null || after.ns === null ? null : after.ns - before.ns,
    cpu_stat_ms: after.statMs - before.statMs,
  };
}

/**
 * The blocks of one round: `pairs` adjacent (on, off) pairs, each on one process index (rotating
 * from round to round), the order inside a pair flipping every `on.length` pairs and starting the
 * other way every other round. Adjacent blocks see nearly the same machine, so what the machine
 * does meanwhile mostly cancels out of the round's ratio.
 * @param {Gw[]} on @param {Gw[]} off @param {number} round @param {number} pairs
 */
export function roundOrder(on, off, round, pairs) {
  /** @type {Gw[]} */
  const order = [];
  for (let k = 0; k < pairs; k++) {
    const i = (k + round) % on.length;
    // The order flips every on.length pairs, not every pair: with 2 processes a flip per pair would
    // tie the order to the process (on 0 always first, on 1 always second), and an A/A run showed
    // that bias (about 1.7 % in favour of "off").
    const flip = (Math.floor(k / on.length) + round) % 2 === 1;
    order.push(...(flip ? [off[i], on[i]] : [on[i], off[i]]));
  }
  return order;
}

/** @param {Sample[]} samples of one round and variant */
function roundTotals(samples) {
  const calls = samples.reduce((s, x) => s + x.calls, 0);
  const wall = samples.reduce((s, x) => s + x.wall_ms, 0);
  const ns = samples.every((x) => x.cpu_ns !== null) ? samples.reduce((s, x) => s + /** @type {number} */ (x.cpu_ns), 0) : null;
  return { calls, calls_per_s: (calls * 1000) / wall, cpu_us_per_call: ns === null ? null : ns / 1000 / calls };
}

/** Median, quartiles and the bootstrap 95 % CI of the median. @param {number[]} values @param {number} [decimals] */
function spread(values, decimals = 4) {
  const ci = bootstrapMedianCi(values);
  return {
    median: round(quantile(values, 0.5), decimals),
    p25: round(quantile(values, 0.25), decimals),
    p75: round(quantile(values, 0.75), decimals),
    ci95: ci ? [round(ci[0], decimals), round(ci[1], decimals)] : null,
    n: values.length,
  };
}

/** @param {Sample[]} samples @param {number[]} rounds */
export function summarize(samples, rounds) {
  const perRound = [];
  for (const r of rounds) {
    const on = roundTotals(samples.filter((s) => s.round === r && s.variant === 'on'));
    const off = roundTotals(samples.filter((s) => s.round === r && s.variant === 'off'));
    perRound.push({
      round: r,
      on_calls_per_s: round(on.calls_per_s, 1),
      off_calls_per_s: round(off.calls_per_s, 1),
      ratio: on.calls_per_s / off.calls_per_s,
      on_cpu_us: on.cpu_us_per_call,
      off_cpu_us: off.cpu_us_per_call,
      cpu_diff_us: on.cpu_us_per_call !== null && off.cpu_us_per_call !== null ? on.cpu_us_per_call - off.cpu_us_per_call : null,
    });
  }
  const ratios = perRound.map((r) => r.ratio);
  const throughputRatio = spread(ratios);
  const costOf = (/** @type {number | null} */ ratio) => (ratio === null ? null : round((1 - ratio) * 100, 2));
  const cpuDiffs = /** @type {number[]} */ (perRound.map((r) => r.cpu_diff_us).filter((v) => v !== null));
  const cpuOff = /** @type {number[]} */ (perRound.map((r) => r.off_cpu_us).filter((v) => v !== null));
  const cpuOn = /** @type {number[]} */ (perRound.map((r) => r.on_cpu_us).filter((v) => v !== null));
  // Clock-tick CPU over the whole run (10 ms resolution, so only totals mean anything).
  const statTotal = (/** @type {'on' | 'off'} */ v) => {
    const mine = samples.filter((s) => s.variant === v);
    return (mine.reduce((s, x) => s + x.cpu_stat_ms, 0) * 1000) / mine.reduce((s, x) => s + x.calls, 0);
  };
  const cpuDiff = spread(cpuDiffs, 2);
  // The same per adjacent pair of blocks (finer, more values, each noisier).
  const pairRatios = [];
  const pairCpuDiffs = [];
  for (const r of rounds) {
    for (const k of new Set(samples.filter((s) => s.round === r).map((s) => s.pair))) {
      const on = roundTotals(samples.filter((s) => s.round === r && s.pair === k && s.variant === 'on'));
      const off = roundTotals(samples.filter((s) => s.round === r && s.pair === k && s.variant === 'off'));
      pairRatios.push(on.calls_per_s / off.calls_per_s);
      if (on.cpu_us_per_call !== null && off.cpu_us_per_call !== null) pairCpuDiffs.push(on.cpu_us_per_call - off.cpu_us_per_call);
    }
  }
  const offMedian = quantile(cpuOff, 0.5);
  // Least disturbed blocks: interference from other work only ever slows a block down, so the fastest
  // blocks of each variant (their 90th percentile of calls/s) are the closest to the undisturbed cost.
  const blockRates = (/** @type {'on' | 'off'} */ v) => samples.filter((x) => x.variant === v).map((x) => (x.calls * 1000) / x.wall_ms);
  const fastOn = quantile(blockRates('on'), 0.9) ?? 0;
  const fastOff = quantile(blockRates('off'), 0.9) ?? 1;
  return {
    fastest_blocks: { on_calls_per_s: round(fastOn, 0), off_calls_per_s: round(fastOff, 0), cost_pct: round((1 - fastOn / fastOff) * 100, 2), blocks_per_variant: blockRates('on').length },
    per_round: perRound.map((r) => ({ ...r, ratio: round(r.ratio, 4), on_cpu_us: round(r.on_cpu_us, 2), off_cpu_us: round(r.off_cpu_us, 2), cpu_diff_us: round(r.cpu_diff_us, 2) })),
    calls_per_s: {
      on: round(quantile(perRound.map((r) => r.on_calls_per_s ?? 0), 0.5), 0),
      off: round(quantile(perRound.map((r) => r.off_calls_per_s ?? 0), 0.5), 0),
    },
    throughput_ratio: throughputRatio,
    pairs: { throughput_ratio: spread(pairRatios), cpu_diff_us: spread(pairCpuDiffs, 2) },
    /** 1 - on/off, in %, from the median ratio and its CI (a higher ratio is a lower cost). */
    throughput_cost_pct: {
      median: costOf(throughputRatio.median),
      p25_p75: [costOf(throughputRatio.p75), costOf(throughputRatio.p25)],
      /** @type {[number | null, number | null] | null} */
      ci95: throughputRatio.ci95 ? [costOf(throughputRatio.ci95[1]), costOf(throughputRatio.ci95[0])] : null,
    },
    gateway_cpu_us_per_call: {
      on: round(quantile(cpuOn, 0.5), 2),
      off: round(offMedian, 2),
      diff: cpuDiff,
      diff_pct_of_off: offMedian && cpuDiff.median !== null ? round((cpuDiff.median / offMedian) * 100, 2) : null,
      from_stat_ticks: { on: round(statTotal('on'), 1), off: round(statTotal('off'), 1) },
    },
  };
}

/**
 * Starts `processes` gateways per variant, alternating (on 0, off 0, on 1, off 1, ...), so neither
 * variant is systematically the first or the last one started (and warmed up).
 * @param {number} processes
 * @param {{tmp: string, main: string, gateways: Gw[], aa: boolean, settingsFor?: (variant: 'on' | 'off', aa: boolean) => Record<string, unknown> | undefined}} ctx
 */
export async function startVariants(processes, { tmp, main, gateways, aa, settingsFor }) {
  /** @type {{on: Gw[], off: Gw[]}} */
  const started = { on: [], off: [] };
  for (let i = 0; i < processes; i++) {
    for (const variant of /** @type {const} */ (['on', 'off'])) {
      const gw = await startGateway(tmp, variant, i, main, aa, settingsFor);
      gateways.push(gw);
      started[variant].push(gw);
    }
  }
  return started;
}

// ---------------------------------------------------------------------------------------------
// Report

/** @param {number | null | undefined} v @param {number} [d] */
export const fmt = (v, d = 1) => (typeof v === 'number' ? v.toFixed(d) : '–');

/** @param {any} micro */
function renderMicro(micro) {
  const rows = [
    ['`approximateSize` of the echo result', micro.approximate_size_echo],
    ['`approximateSize` of a 64 KB text result', micro.approximate_size_64k],
    ['prom-client `observeCall`', micro.prometheus_observe],
    ['SQLite insert (`MetricsRepository.recordCall`, with validation)', micro.sqlite_insert],
    ['`Gateway.recordCall`, recording on, direct insert (record built as forward.ts does)', micro.record_path_on],
    [`call journal append (\`serve\`: ${micro.journal.mode === 'mmap' ? 'a copy into the mapped file' : 'one `write(2)`'}; inserted later by a timer, not timed)`, micro.journal_append],
    ['`Gateway.recordCall`, recording on, as `serve` records (journal)', micro.record_path_on_journaled],
    ['`Gateway.recordCall`, recording off (Prometheus only)', micro.record_path_off],
  ];
  return [
    '| record path, in isolation | CPU µs | wall µs | p50 / p99 µs | runs > 0.5 ms (total ms) |',
    '|---|---:|---:|---:|---:|',
    ...rows.map(([label, r]) => `| ${label} | ${fmt(r.cpu_us, 2)} | ${fmt(r.wall_us, 2)} | ${fmt(r.p50_us, 1)} / ${fmt(r.p99_us, 1)} | ${r.over_half_ms} (${fmt(r.over_half_ms_total_ms)}) |`),
  ].join('\n');
}

/** @param {ReturnType<typeof summarize>} s @param {string} [what] what the variants switch on and off */
export function renderEndToEnd(s, what = 'recording') {
  const cost = s.throughput_cost_pct;
  const cpu = s.gateway_cpu_us_per_call;
  return [
    `| stdio face, sequential calls | ${what} on | ${what} off |`,
    '|---|---:|---:|',
    `| calls/s, median of rounds | ${fmt(s.calls_per_s.on, 0)} | ${fmt(s.calls_per_s.off, 0)} |`,
    `| gateway CPU µs/call, median of rounds (schedstat) | ${fmt(cpu.on)} | ${fmt(cpu.off)} |`,
    `| gateway CPU µs/call, whole run (utime+stime ticks) | ${fmt(cpu.from_stat_ticks.on)} | ${fmt(cpu.from_stat_ticks.off)} |`,
    '',
    `Throughput ratio on/off, median of ${s.throughput_ratio.n} per-round ratios: ${fmt(s.throughput_ratio.median, 4)} ` +
      `(IQR ${fmt(s.throughput_ratio.p25, 4)}–${fmt(s.throughput_ratio.p75, 4)}, bootstrap 95 % CI of the median ${s.throughput_ratio.ci95 ? `${fmt(s.throughput_ratio.ci95[0], 4)}–${fmt(s.throughput_ratio.ci95[1], 4)}` : '–'}).`,
    `**Throughput cost of ${what}: ${fmt(cost.median, 2)} %** (IQR ${fmt(cost.p25_p75[0], 2)} to ${fmt(cost.p25_p75[1], 2)} %, 95 % CI ${cost.ci95 ? `${fmt(cost.ci95[0], 2)} to ${fmt(cost.ci95[1], 2)} %` : '–'}).`,
    `**Gateway CPU cost of ${what}: ${fmt(cpu.diff.median, 2)} µs per call** (${fmt(cpu.diff_pct_of_off, 2)} % of the gateway's CPU per call; ` +
      `IQR ${fmt(cpu.diff.p25, 2)} to ${fmt(cpu.diff.p75, 2)} µs, 95 % CI ${cpu.diff.ci95 ? `${fmt(cpu.diff.ci95[0], 2)} to ${fmt(cpu.diff.ci95[1], 2)} µs` : '–'}).`,
    `Least disturbed blocks (90th percentile of calls/s over each variant's ${s.fastest_blocks.blocks_per_variant} blocks): on ${fmt(s.fastest_blocks.on_calls_per_s, 0)}, off ${fmt(s.fastest_blocks.off_calls_per_s, 0)} calls/s, **cost ${fmt(s.fastest_blocks.cost_pct, 2)} %**.`,
    `Per adjacent pair of blocks (${s.pairs.throughput_ratio.n} pairs): throughput ratio median ${fmt(s.pairs.throughput_ratio.median, 4)} ` +
      `(95 % CI ${s.pairs.throughput_ratio.ci95 ? `${fmt(s.pairs.throughput_ratio.ci95[0], 4)}–${fmt(s.pairs.throughput_ratio.ci95[1], 4)}` : '–'}), ` +
      `CPU difference median ${fmt(s.pairs.cpu_diff_us.median, 2)} µs (95 % CI ${s.pairs.cpu_diff_us.ci95 ? `${fmt(s.pairs.cpu_diff_us.ci95[0], 2)} to ${fmt(s.pairs.cpu_diff_us.ci95[1], 2)}` : '–'}).`,
  ].join('\n');
}

/** @param {number | null} costPct @param {[number | null, number | null] | null} ci */
function verdict(costPct, ci) {
  if (costPct === null) return 'no verdict (no throughput measured)';
  if (ci && ci[1] !== null && ci[1] <= 3) return 'met: the whole 95 % CI of the throughput cost is at or below 3 %';
  if (ci && ci[0] !== null && ci[0] > 3) return 'not met: the whole 95 % CI of the throughput cost is above 3 %';
  return costPct <= 3 ? 'met by the median, but the 95 % CI reaches above 3 %' : 'not met by the median; the 95 % CI reaches below 3 %';
}

// ---------------------------------------------------------------------------------------------

/** @param {RecordingOptions} options */
export async function recordingBench({ tmp, gateway, progress, rounds, calls, pairs, processes, warmup, microOps, json, aa = false }) {
  const machine = machineInfo();
  const loadBefore = loadAverage();
  const startedAt = new Date();
  progress(`record path in isolation (${microOps} operations each)`);
  const micro = await microBench({ tmp, root: gateway.root, ops: microOps });

  /** @type {Gw[]} */
  const gateways = [];
  /** @type {Sample[]} */
  const samples = [];
  const loadDuring = [];
  try {
    const ctx = { tmp, main: gateway.main, gateways, aa };
    progress(`starting ${processes} gateway(s) with recording on and ${processes} with it off`);
    const { on, off } = await startVariants(processes, ctx);
    progress(`warming up every gateway (${warmup} calls each)`);
    for (const gw of gateways) await callsInARow(gw, warmup);
    for (let r = 0; r < rounds; r++) {
      const order = roundOrder(on, off, r, pairs);
      for (let b = 0; b < order.length; b++) samples.push(await measure(order[b], r, Math.floor(b / 2), calls));
      loadDuring.push(loadAverage()[0]);
      const last = summarize(samples, [r]).per_round[0];
      progress(`round ${r + 1}/${rounds}: on ${fmt(last.on_calls_per_s, 0)} calls/s, off ${fmt(last.off_calls_per_s, 0)} calls/s, ratio ${fmt(last.ratio, 3)}; gateway CPU ${fmt(last.on_cpu_us)} vs ${fmt(last.off_cpu_us)} µs/call`);
    }
  } finally {
    for (const gw of gateways) await gw.session.close();
  }
  const summary = summarize(samples, Array.from({ length: rounds }, (_, r) => r));
  const loadAfter = loadAverage();
  const revision = gitRevision();
  const text = [
    `## Cost of recording calls (${startedAt.toISOString()})${aa ? ': A/A calibration' : ''}`,
    '',
    ...(aa ? ['**A/A calibration: the "on" gateways record nothing either** (`recordCalls: false` on both sides), so every cost below is the statistics\' own noise and bias.', ''] : []),
    `Machine: ${machine.cpu}, ${machine.cores} cores, Node ${machine.node}. Load average ${loadBefore.join(' / ')} before, ${loadAfter.join(' / ')} after ` +
      `(1-minute figure during the rounds: ${fmt(quantile(loadDuring, 0), 2)} to ${fmt(quantile(loadDuring, 1), 2)}).`,
    `Gateway built from ${revision.commit ?? 'an unknown commit'}${gateway.revision.src_dirty ? ' with uncommitted changes in src/' : ''}; ` +
      `pragmas journal_mode=${micro.pragmas.journal_mode}, synchronous=${micro.pragmas.synchronous} (1 = NORMAL), wal_autocheckpoint=${micro.pragmas.wal_autocheckpoint}.`,
    micro.journal.mode === 'mmap'
      ? 'Call journal: memory-mapped (the native addon is built; each call is a copy into shared file pages).'
      : `Call journal: one write(2) per call, because ${micro.journal.write_reason} (the cost below is not what a build with the native addon pays).`,
    `End to end: ${processes} gateway process(es) per variant, each ${warmup} warm-up calls, then ${rounds} rounds; a round is ${pairs} adjacent (on, off) pairs of ` +
      `${calls} sequential calls each, the order inside a pair flipping every ${processes} pair(s) (${rounds * pairs * calls * 2} measured calls in all).`,
    '',
    renderMicro(micro),
    '',
    renderEndToEnd(summary),
    '',
    `≤ 3 % goal: ${verdict(summary.throughput_cost_pct.median, summary.throughput_cost_pct.ci95)}.`,
    '',
  ].join('\n');
  process.stdout.write(text);
  if (json) {
    writeFileSync(
      path.resolve(json),
      `${JSON.stringify({ machine, load_before: loadBefore, load_after: loadAfter, load_during: loadDuring, revision, plan: { rounds, pairs, calls, processes, warmup, microOps }, micro, summary, samples }, null, 2)}\n`,
    );
    progress(`wrote ${path.resolve(json)}`);
  }
}
