// @ts-check
// The main benchmark: schedules the targets interleaved with their direct baselines over several
// rounds, measures each, and aggregates medians, ratios and the report.
import { measure, STEADY_WARMUP_CALLS } from './measure.mjs';
import { gitRevision, loadAverage, machineInfo, markdownTable } from './report.mjs';
import { installedVersion } from './root-modules.mjs';
import { CLIENT_SDK_VERSION } from './client.mjs';
import { median, round } from './stats.mjs';
import { TARGETS } from './targets.mjs';
import { stdioPeersDir } from './stdio-peers.mjs';

/** @type {Record<'quick' | 'full', import('./measure.mjs').Plan>} */
export const PLANS = {
  quick: {
    connectReps: 3,
    connectMaxMs: 1_000,
    listReps: 20,
    listMaxMs: 400,
    seqWarmup: 3_000,
    seqWarmMs: 400,
    seqCalls: 1_000,
    seqMaxMs: 700,
    payloadReps: 5,
    payloadMaxMs: 700,
    levels: [1, 8, 32],
    openMaxMs: 8_000,
    openStdioMaxMs: 25_000,
    sessionWarmCalls: 10,
    fleetWarmCalls: 500,
    fleetWarmMs: 500,
    levelWarmMs: 150,
    levelMs: 600,
    deadlineMs: 50_000,
    readyMs: 20_000,
  },
  full: {
    connectReps: 10,
    connectMaxMs: 5_000,
    listReps: 100,
    listMaxMs: 1_500,
    // At 2 s a 0.5 ms target was measured after ~4,000 calls, still warming (STEADY_WARMUP_CALLS).
    seqWarmup: STEADY_WARMUP_CALLS,
    seqWarmMs: 6_000,
    seqCalls: 5_000,
    seqMaxMs: 4_000,
    payloadReps: 20,
    payloadMaxMs: 3_000,
    levels: [1, 8, 32],
    openMaxMs: 10_000,
    openStdioMaxMs: 40_000,
    sessionWarmCalls: 50,
    fleetWarmCalls: 3_000,
    fleetWarmMs: 8_000,
    levelWarmMs: 500,
    levelMs: 2_500,
    deadlineMs: 150_000,
    readyMs: 30_000,
  },
};

/**
 * @param {{quick: boolean, rounds: number, only?: string[], tmp: string, gatewayLogLevel: string,
 *   gateway?: {main: string, revision: {commit: string | null, src_dirty: boolean | null}}, progress: (line: string) => void}} options
 */
export async function runBench({ quick, rounds, only, tmp, gatewayLogLevel, gateway, progress }) {
  const plan = quick ? PLANS.quick : PLANS.full;
  /** @type {Map<string, import('./targets.mjs').Target>} */
  const byId = new Map(TARGETS.map((t) => [t.id, t]));
  if (only) {
    const unknown = only.filter((id) => !byId.has(id));
    if (unknown.length) throw new Error(`unknown target(s): ${unknown.join(', ')}; known: ${[...byId.keys()].join(', ')}`);
  }
  const ctx = { tmp, gatewayLogLevel, gatewayMain: gateway?.main, stdioPeersDir: stdioPeersDir(undefined) };
  const selected = TARGETS.filter((t) => (only ? only.includes(t.id) : !(quick && t.fullOnly)));
  /** @type {Set<string>} */
  const baselineIds = new Set(selected.map((t) => t.baseline));
  const chosen = TARGETS.filter((t) => selected.includes(t) || baselineIds.has(t.id));

  /** @type {Map<string, string>} why a target is not measured */
  const skipped = new Map();
  for (const t of chosen) {
    const why = t.unavailable?.(ctx);
    if (why) skipped.set(t.id, why);
  }
  const measuredTargets = chosen.filter((t) => t.group !== 'direct');
  const directOnly = measuredTargets.length === 0;

  /** @type {Map<string, any[]>} */
  const runs = new Map(chosen.map((t) => [t.id, []]));
  const machine = machineInfo();
  const loadBefore = loadAverage();
  const startedAt = new Date();
  progress(`${machine.cpu}, ${machine.cores} cores, ${machine.memory_gb} GB, Node ${machine.node}; load average ${loadBefore.join(' ')}`);
  progress(`${quick ? 'quick' : 'full'} run: ${rounds} round(s), ${chosen.length - skipped.size} target(s), gateway log level ${gatewayLogLevel}`);

  for (let r = 1; r <= rounds; r++) {
    /** @type {import('./targets.mjs').Target[]} */
    let order;
    if (directOnly) order = chosen;
    else {
      const sequence = r % 2 === 1 ? measuredTargets : [...measuredTargets].reverse();
      order = sequence.flatMap((t) => (skipped.has(t.id) ? [] : [/** @type {import('./targets.mjs').Target} */ (byId.get(t.baseline)), t]));
    }
    /** The last measurement of each baseline in this round: a target is paired with the one right before it. */
    /** @type {Map<string, any>} */
    const lastBaseline = new Map();
    for (const [i, target] of order.entries()) {
      if (skipped.has(target.id)) continue;
      const tag = `r${r}/${rounds} ${i + 1}/${order.length} ${target.id}`;
      // A target pairs only with the baseline block right before it: not with an earlier one when this one fails.
      if (target.group === 'direct') lastBaseline.delete(target.id);
      progress(`${tag}: starting`);
      let deployment;
      try {
        deployment = await target.start(ctx);
      } catch (error) {
        const reason = `failed to start: ${(error instanceof Error ? error.message : String(error)).split('\n').slice(0, 3).join(' / ').slice(0, 300)}`;
        progress(`${tag}: ${reason}`);
        skipped.set(target.id, reason);
        continue;
      }
      try {
        const record = await measure(target, deployment, plan, (line) => progress(`${tag}: ${line}`));
        record.round = r;
        if (target.group === 'direct') lastBaseline.set(target.id, record);
        else record.adjacent_baseline = adjacentFigures(lastBaseline.get(target.baseline));
        /** @type {any[]} */ (runs.get(target.id)).push(record);
        for (const e of record.errors) progress(`${tag}: error: ${e}`);
      } finally {
        await deployment.stop();
      }
    }
  }

  const loadAfter = loadAverage();
  const finishedAt = new Date();
  const records = aggregate(chosen, runs, skipped);
  const versions = {
    '@modelcontextprotocol/client (load client)': CLIENT_SDK_VERSION,
    '@modelcontextprotocol/server (gateway, echo server)': installedVersion('@modelcontextprotocol/server'),
    ...Object.fromEntries(chosen.filter((t) => t.version).map((t) => [t.id.replace(/-(stateless|stateful)$/, ''), t.version])),
  };
  const revision = gateway?.revision ?? gitRevision();
  const header = [
    `Switchboard benchmark, ${finishedAt.toISOString()} (${quick ? 'quick' : 'full'}: ${rounds} round(s), medians; gateway log level ${gatewayLogLevel})`,
    `Machine: ${machine.cpu}, ${machine.cores} cores, ${machine.memory_gb} GB RAM, Node ${machine.node}, ${machine.platform}`,
    `Load average (1/5/15 min): before ${loadBefore.join(' ')}, after ${loadAfter.join(' ')}`,
    `Commit: ${revision.commit ?? 'unknown'}${revision.src_dirty ? ' (src/ has uncommitted changes)' : ''}; ${Object.entries(versions).map(([k, v]) => `${k} ${v}`).join(', ')}`,
    '',
  ];
  const notes = [
    '',
    'connect: a new session (stdio: spawn + initialize). tools/list: warm. seq: sequential tools/call echo. × direct: seq p50 over the direct',
    'p50 of the same face in this run (SSE counts as HTTP); paired: the median over rounds of each round\'s p50 over the direct block',
    'measured right before it (the blocks of a round run target after its direct baseline, the order reversing every round). CPU µs/call: CPU time of the target\'s processes (gateway and echo server) per',
    'sequential call. calls/s: closed loop, one request in flight per session (stdio: one process per session), after a warm-up.',
    '64 KB: tools/call payload returning 65,536 bytes. RSS: peak summed VmRSS of the target\'s process trees (stdio: the first session\'s',
    'tree; HTTP: the server tree, every session open).',
  ];
  const problems = records.flatMap((r) => (r.errors ?? []).map((/** @type {string} */ e) => `- ${r.label}: ${e}`));
  if (problems.length) notes.push('', 'Problems met while measuring (a "–" in the table is one of these):', ...problems);
  const text = [...header, markdownTable(records, plan.levels), ...notes].join('\n');
  return {
    text,
    json: {
      started: startedAt.toISOString(),
      finished: finishedAt.toISOString(),
      mode: quick ? 'quick' : 'full',
      rounds,
      gateway_log_level: gatewayLogLevel,
      machine,
      load_average: { before: loadBefore, after: loadAfter },
      revision,
      versions,
      plan,
      targets: records,
      runs: Object.fromEntries(runs),
    },
  };
}

/**
 * A measurement's calls/s at `clients` concurrent sessions.
 * @param {any} record @param {number} clients
 * @returns {number | undefined}
 */
function callsAt(record, clients) {
  return record.throughput?.find((/** @type {any} */ x) => x.clients === clients)?.calls_per_s;
}

/**
 * What a target's ratios need of the baseline measured right before it in the same round.
 * @param {any} baseline
 */
function adjacentFigures(baseline) {
  if (!baseline) return undefined;
  return { p50_ms: baseline.seq?.p50_ms ?? null, calls32: callsAt(baseline, 32) ?? null };
}

/**
 * One record per target: medians over its rounds, and ratios against its direct baseline.
 * @param {import('./targets.mjs').Target[]} targets
 * @param {Map<string, any[]>} runs
 * @param {Map<string, string>} skipped
 */
function aggregate(targets, runs, skipped) {
  /** @type {Map<string, any>} */
  const out = new Map();
  for (const t of targets) {
    const rs = runs.get(t.id) ?? [];
    const base = { target: t.id, label: t.label, face: t.face, downstream: t.downstream, group: t.group, ...(t.version && { version: t.version }) };
    if (rs.length === 0) {
      out.set(t.id, { ...base, skipped: skipped.get(t.id) ?? 'not measured', connect_ms: null, list_ms: null, seq: null, throughput: [], payload64k_ms: null, rss_mb: null, ratio_p50_vs_direct: null });
      continue;
    }
    const med = (/** @type {(r: any) => number | null | undefined} */ pick) => round(median(rs.map(pick)));
    const levels = [...new Set(rs.flatMap((r) => r.throughput.map((/** @type {any} */ x) => x.clients)))].sort((a, b) => a - b);
    out.set(t.id, {
      ...base,
      measurements: rs.length,
      startup_ms: med((r) => r.startup_ms),
      connect_ms: med((r) => r.connect_ms),
      connect_first_ms: med((r) => r.connect_first_ms),
      list_first_ms: med((r) => r.list_first_ms),
      list_ms: med((r) => r.list_ms),
      seq: { p50_ms: med((r) => r.seq.p50_ms), p90_ms: med((r) => r.seq.p90_ms), p99_ms: med((r) => r.seq.p99_ms), n: med((r) => r.seq.n) },
      throughput: levels.map((clients) => {
        const rows = rs.map((r) => r.throughput.find((/** @type {any} */ x) => x.clients === clients)).filter(Boolean);
        return {
          clients,
          calls_per_s: round(median(rows.map((x) => x.calls_per_s)), 0),
          p50_ms: round(median(rows.map((x) => x.p50_ms))),
          p99_ms: round(median(rows.map((x) => x.p99_ms))),
          errors: rows.reduce((a, x) => a + x.errors, 0),
          machine_cpu_pct: round(median(rows.map((x) => x.machine_cpu_pct)), 1),
          harness_cpu_pct: round(median(rows.map((x) => x.harness_cpu_pct)), 1),
        };
      }),
      seq_cpu_us_per_call: round(median(rs.map((r) => r.seq_cpu_us_per_call)), 0),
      payload64k_ms: med((r) => r.payload64k_ms),
      echo64k_ms: med((r) => r.echo64k_ms),
      rss_mb: round(median(rs.map((r) => r.rss_mb)), 1),
      rss_root_mb: round(median(rs.map((r) => r.rss_root_mb)), 1),
      errors: [...new Set(rs.flatMap((r) => r.errors))],
      ...(skipped.has(t.id) && { note: skipped.get(t.id) }),
    });
  }
  for (const t of targets) {
    const record = out.get(t.id);
    const baseline = out.get(t.baseline);
    if (record.skipped || !baseline || baseline.skipped) {
      record.ratio_p50_vs_direct = null;
      continue;
    }
    const div = (/** @type {number | null | undefined} */ a, /** @type {number | null | undefined} */ b) => (typeof a === 'number' && typeof b === 'number' && b > 0 ? round(a / b) : null);
    record.ratio_p50_vs_direct = div(record.seq.p50_ms, baseline.seq.p50_ms);
    record.ratio_list_vs_direct = div(record.list_ms, baseline.list_ms);
    record.ratio_calls32_vs_direct = div(callsAt(record, 32), callsAt(baseline, 32));
    // Each round's measurement over the baseline measured right before it, then the median: steadier
    // than the ratio of medians when the machine's state drifts between the blocks of a run.
    const rs = /** @type {any[]} */ (runs.get(t.id) ?? []);
    const paired = (/** @type {(r: any) => number | null | undefined} */ mine, /** @type {'p50_ms' | 'calls32'} */ figure) =>
      rs.map((r) => div(mine(r), r.adjacent_baseline?.[figure])).filter((v) => typeof v === 'number');
    const medianOf = (/** @type {number[]} */ ratios) => (ratios.length ? round(median(ratios)) : null);
    record.ratio_p50_paired_rounds = paired((r) => r.seq?.p50_ms, 'p50_ms');
    record.ratio_p50_paired = medianOf(record.ratio_p50_paired_rounds);
    record.ratio_calls32_paired_rounds = paired((r) => callsAt(r, 32), 'calls32');
    record.ratio_calls32_paired = medianOf(record.ratio_calls32_paired_rounds);
  }
  // Directs first, then Switchboard, then peers, then the relay floor; each group in definition order.
  const rank = { direct: 0, switchboard: 1, peer: 2, floor: 3 };
  return [...out.values()].sort((a, b) => rank[/** @type {'direct'} */ (a.group)] - rank[/** @type {'direct'} */ (b.group)]);
}
