// @ts-check
// One measurement of one target: connect+initialize, tools/list, sequential calls, a 64 KB round
// trip, throughput at several concurrent sessions, and the peak RSS of its process trees. Every
// phase is bounded in count and in time; a failing phase is recorded and the others still run.
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { openSession } from './client.mjs';
import { treeCpuMs } from './procs.mjs';
import { RssSampler } from './rss.mjs';
import { median, round, summarize } from './stats.mjs';

/**
 * Warm-up calls before a target's per-call time is its steady state: a gateway's JIT needs
 * ~5,000-10,000 calls (bench/warm-up.mjs; docs/performance.md, seventeenth pass of issue 17). The full
 * plan and the A/B scripts warm with this many.
 */
export const STEADY_WARMUP_CALLS = 10_000;

/**
 * @typedef {object} Plan
 * @property {number} connectReps extra sessions opened (and closed) one by one to time connect+initialize
 * @property {number} connectMaxMs time cap of those
 * @property {number} listReps warm tools/list calls
 * @property {number} listMaxMs time cap of those
 * @property {number} seqWarmup calls before the sequential measurement (at most)
 * @property {number} seqWarmMs time cap of the warm-up
 * @property {number} seqCalls sequential calls measured (at most)
 * @property {number} seqMaxMs time cap of the sequential measurement
 * @property {number} payloadReps 64 KB round trips measured
 * @property {number} payloadMaxMs time cap of those
 * @property {number[]} levels concurrent sessions
 * @property {number} openMaxMs time cap for opening (and warming) the extra sessions of the throughput phase over HTTP
 * @property {number} openStdioMaxMs the same for stdio, where every session starts its own processes
 * @property {number} sessionWarmCalls calls each extra session makes right after it opens (after one tools/list)
 * @property {number} fleetWarmCalls calls per session, all sessions at once, before the first level (at most)
 * @property {number} fleetWarmMs time cap of that warm-up
 * @property {number} levelWarmMs
 * @property {number} levelMs
 * @property {number} deadlineMs hard cap for one target measurement
 * @property {number} readyMs how long a target may take to list the echo tools after it accepts connections
 */

const PAYLOAD_BYTES = 64 * 1024;
const ECHO_ARGS = { message: 'hello' };
const OPEN_CONCURRENCY = 8;
const MAX_LOOP_ERRORS = 10;
const MAX_CALLS_PER_SESSION_LEVEL = 1_000_000;

/** @param {Array<{name: string}>} tools @param {string} base */
function findTool(tools, base) {
  const names = tools.map((t) => t.name);
  const suffix = new RegExp(`(^|[^A-Za-z0-9])${base}$`);
  return names.find((n) => n === base) ?? names.find((n) => suffix.test(n));
}

/**
 * Waits for a promise, at most `ms` (the timer is cleared either way, so it holds no process open).
 * @param {Promise<unknown>} promise
 * @param {number} ms
 */
async function settleWithin(promise, ms) {
  /** @type {NodeJS.Timeout | undefined} */
  let timer;
  try {
    await Promise.race([promise, new Promise((resolve) => (timer = setTimeout(resolve, ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

/** @param {unknown} error */
const message = (error) => (error instanceof Error ? error.message : String(error)).split('\n')[0].slice(0, 300);

/** Busy and total jiffies of the whole machine, from /proc/stat. */
function cpuTimes() {
  const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0];
  const fields = line.trim().split(/\s+/).slice(1).map(Number);
  const idle = fields[3] + (fields[4] ?? 0);
  const total = fields.reduce((a, b) => a + b, 0);
  return { busy: total - idle, total };
}

/**
 * @param {import('./targets.mjs').Target} target
 * @param {import('./targets.mjs').Deployment} deployment
 * @param {Plan} plan
 * @param {(line: string) => void} progress
 */
export async function measure(target, deployment, plan, progress) {
  const deadline = Date.now() + plan.deadlineMs;
  const timeLeft = () => deadline - Date.now();
  /** @type {string[]} */
  const errors = [];
  const sampler = new RssSampler(100);
  for (const pid of deployment.roots) sampler.add(pid);
  /** @type {import('./client.mjs').Session[]} */
  const sessions = [];

  /** @type {Record<string, any>} */
  const result = {
    target: target.id,
    face: target.face,
    downstream: target.downstream,
    startup_ms: round(deployment.startupMs, 1),
    connect_first_ms: null,
    connect_ms: null,
    list_first_ms: null,
    list_ms: null,
    seq: { n: 0, p50_ms: null, p90_ms: null, p99_ms: null },
    seq_warmup_calls: 0,
    throughput: [],
    seq_cpu_us_per_call: null,
    payload64k_ms: null,
    echo64k_ms: null,
    rss_mb: null,
    rss_root_mb: null,
    processes: null,
    errors,
  };

  try {
    // The primary session stays open throughout: on an HTTP target it keeps the target warm (a
    // gateway may stop its downstream connections when its last session ends).
    // A target may accept connections before it can serve MCP (mcp-hub answers 500 until its hub is
    // up): the first session is retried until the target is ready.
    const readyUntil = performance.now() + plan.readyMs;
    let first;
    for (let attempt = 0; !first; attempt++) {
      try {
        first = await openSession(deployment.endpoint);
      } catch (error) {
        if (performance.now() > readyUntil || attempt >= 500) throw error;
        await sleep(100);
      }
    }
    const primary = first.session;
    sessions.push(primary);
    sampler.add(primary.pid);
    result.connect_first_ms = round(first.connectMs);

    // First tools/list, repeated until the echo tools show up (a target may still be connecting).
    const listStarted = performance.now();
    let echoName;
    let payloadName;
    for (let attempt = 0; attempt < 1000 && performance.now() - listStarted < plan.readyMs; attempt++) {
      const { tools } = await primary.listTools();
      echoName = findTool(tools ?? [], 'echo');
      payloadName = findTool(tools ?? [], 'payload');
      if (echoName && payloadName) break;
      await sleep(50);
    }
    if (!echoName || !payloadName) throw new Error(`the echo tools were not listed within ${plan.readyMs} ms`);
    result.list_first_ms = round(performance.now() - listStarted);
    result.tools = { echo: echoName, payload: payloadName };
    const echoTool = echoName;
    const payloadTool = payloadName;

    // connect+initialize of further sessions, one at a time, each closed before the next.
    await phase('connect', async () => {
      const times = [];
      const until = performance.now() + plan.connectMaxMs;
      for (let i = 0; i < plan.connectReps && performance.now() < until && timeLeft() > 5_000; i++) {
        const { session, connectMs } = await openSession(deployment.endpoint);
        times.push(connectMs);
        await session.close();
      }
      result.connect_ms = round(median(times));
      progress(`connect ${result.connect_ms} ms (first ${result.connect_first_ms} ms)`);
    });

    await phase('list', async () => {
      const times = [];
      const until = performance.now() + plan.listMaxMs;
      for (let i = 0; i < plan.listReps && performance.now() < until && timeLeft() > 5_000; i++) {
        const started = performance.now();
        await primary.listTools();
        times.push(performance.now() - started);
      }
      result.list_ms = round(median(times));
    });

    await phase('seq', async () => {
      const warmUntil = performance.now() + plan.seqWarmMs;
      let warm = 0;
      for (; warm < plan.seqWarmup && performance.now() < warmUntil; warm++) await primary.call(echoTool, ECHO_ARGS);
      result.seq_warmup_calls = warm;
      const samples = new Float64Array(plan.seqCalls);
      const cpuRoots = primary.pid ? [primary.pid] : deployment.roots;
      const cpuBefore = treeCpuMs(cpuRoots);
      const stopAt = performance.now() + Math.min(plan.seqMaxMs, Math.max(0, timeLeft() - 10_000));
      let n = 0;
      for (; n < plan.seqCalls && performance.now() < stopAt; n++) {
        const started = performance.now();
        await primary.call(echoTool, ECHO_ARGS);
        samples[n] = performance.now() - started;
      }
      result.seq = summarize(samples.subarray(0, n));
      // Negative when processes left the tree unreaped (supergateway's per-request children): unknown.
      const cpuMs = treeCpuMs(cpuRoots) - cpuBefore;
      result.seq_cpu_us_per_call = n > 0 && cpuMs >= 0 ? round((cpuMs * 1000) / n, 0) : null;
      progress(`seq ${n} calls after ${warm} warm-up calls: p50 ${result.seq.p50_ms} ms, p99 ${result.seq.p99_ms} ms, target CPU ${result.seq_cpu_us_per_call} µs/call`);
    });

    await phase('payload', async () => {
      const big = 'y'.repeat(PAYLOAD_BYTES);
      const payloadTimes = [];
      const echoTimes = [];
      const until = performance.now() + plan.payloadMaxMs;
      for (let i = 0; i < plan.payloadReps + 1 && (i < 2 || performance.now() < until) && timeLeft() > 5_000; i++) {
        let started = performance.now();
        const res = await primary.call(payloadTool, { bytes: PAYLOAD_BYTES });
        const took = performance.now() - started;
        const length = res?.content?.[0]?.text?.length;
        if (length !== PAYLOAD_BYTES) throw new Error(`payload returned ${length} bytes, expected ${PAYLOAD_BYTES}`);
        started = performance.now();
        await primary.call(echoTool, { message: big });
        const echoTook = performance.now() - started;
        if (i === 0) continue; // warm-up
        payloadTimes.push(took);
        echoTimes.push(echoTook);
      }
      result.payload64k_ms = round(median(payloadTimes));
      result.echo64k_ms = round(median(echoTimes));
    });

    await phase('throughput', async () => {
      const wanted = Math.max(...plan.levels);
      const openMaxMs = deployment.endpoint.kind === 'stdio' ? plan.openStdioMaxMs : plan.openMaxMs;
      const openStarted = performance.now();
      const opened = await openMore(deployment.endpoint, sessions, wanted, { echoTool, calls: plan.sessionWarmCalls, maxMs: openMaxMs }, timeLeft, errors);
      progress(`opened ${opened} of ${wanted} sessions in ${Math.round(performance.now() - openStarted)} ms`);
      const warm = await warmFleet(sessions, echoTool, plan, timeLeft);
      result.fleet_warmup = warm;
      progress(`warm-up: ${warm.calls_per_session} calls per session in ${warm.ms} ms`);
      for (const level of plan.levels) {
        if (level > sessions.length) {
          errors.push(`throughput@${level}: only ${sessions.length} sessions could be opened (and warmed) within ${openMaxMs} ms`);
          continue;
        }
        if (timeLeft() < plan.levelWarmMs + plan.levelMs + 5_000) {
          errors.push(`throughput@${level}: skipped, the target's time budget ran out`);
          continue;
        }
        const row = await runLevel(sessions.slice(0, level), echoTool, plan);
        result.throughput.push(row);
        progress(`${level} session(s): ${row.calls_per_s} calls/s, p99 ${row.p99_ms} ms${row.errors ? `, ${row.errors} errors` : ''}`);
      }
    });
  } catch (error) {
    errors.push(message(error));
    const tail = deployment.tail();
    if (tail) errors.push(`target output: ${tail.split('\n').slice(-3).join(' | ').slice(0, 500)}`);
  } finally {
    const refused = deployment.refused?.() ?? 0;
    if (refused) errors.push(`tried to open ${refused} connection(s) off this machine; the loopback guard refused them`);
    const rss = sampler.stop();
    result.rss_mb = rss.peak_mb;
    result.rss_root_mb = rss.root_peak_mb;
    result.processes = rss.processes;
    await Promise.all(sessions.map((s) => s.close()));
  }
  return result;

  /** @param {string} name @param {() => Promise<void>} body */
  async function phase(name, body) {
    if (timeLeft() <= 0) {
      errors.push(`${name}: skipped, the target's time budget ran out`);
      return;
    }
    try {
      await body();
    } catch (error) {
      errors.push(`${name}: ${message(error)}`);
    }
  }
}

/**
 * Opens sessions until there are `wanted` (a few at a time), each warmed with one tools/list and a
 * few calls (a gateway may start its downstream on first use); returns how many are open.
 * @param {import('./client.mjs').Endpoint} endpoint
 * @param {import('./client.mjs').Session[]} sessions
 * @param {number} wanted
 * @param {{echoTool: string, calls: number, maxMs: number}} warm
 * @param {() => number} timeLeft
 * @param {string[]} errors
 */
async function openMore(endpoint, sessions, wanted, warm, timeLeft, errors) {
  let failures = 0;
  const until = performance.now() + warm.maxMs;
  const openWarm = async () => {
    const { session } = await openSession(endpoint);
    try {
      await session.listTools();
      for (let i = 0; i < warm.calls && performance.now() < until; i++) await session.call(warm.echoTool, ECHO_ARGS);
    } catch (error) {
      await session.close();
      throw error;
    }
    return { session };
  };
  for (let round = 0; round < wanted && sessions.length < wanted && failures < 3 && performance.now() < until && timeLeft() > 10_000; round++) {
    const batch = Math.min(OPEN_CONCURRENCY, wanted - sessions.length);
    const results = await Promise.allSettled(Array.from({ length: batch }, openWarm));
    for (const r of results) {
      if (r.status === 'fulfilled') sessions.push(r.value.session);
      else {
        failures++;
        errors.push(`open session: ${message(r.reason)}`);
      }
    }
  }
  return sessions.length;
}

/**
 * All sessions call echo at once until each has made `fleetWarmCalls` calls or `fleetWarmMs` passed:
 * a freshly started process (every stdio session is one) runs slower until V8 has optimized its hot
 * paths, a few thousand calls in.
 * @param {import('./client.mjs').Session[]} sessions
 * @param {string} tool
 * @param {Plan} plan
 * @param {() => number} timeLeft
 */
async function warmFleet(sessions, tool, plan, timeLeft) {
  const started = performance.now();
  const until = started + Math.min(plan.fleetWarmMs, Math.max(0, timeLeft() - 20_000));
  const counts = await Promise.all(
    sessions.map(async (session) => {
      let i = 0;
      try {
        for (; i < plan.fleetWarmCalls && performance.now() < until; i++) await session.call(tool, ECHO_ARGS);
      } catch {
        // counted as fewer warm-up calls; the level that uses this session records its errors
      }
      return i;
    }),
  );
  return { calls_per_session: Math.min(...counts), ms: Math.round(performance.now() - started) };
}

/**
 * Every session calls echo in a closed loop (one request outstanding per session); after a warm-up,
 * completions in the window count toward calls/s and their latencies toward p99.
 * @param {import('./client.mjs').Session[]} active
 * @param {string} tool
 * @param {Plan} plan
 */
async function runLevel(active, tool, plan) {
  let stop = false;
  let windowStart = Infinity;
  let windowEnd = Infinity;
  /** @type {number[]} */
  const latencies = [];
  let errors = 0;
  const loop = async (/** @type {import('./client.mjs').Session} */ session) => {
    let failures = 0;
    for (let i = 0; i < MAX_CALLS_PER_SESSION_LEVEL && !stop; i++) {
      const started = performance.now();
      try {
        await session.call(tool, ECHO_ARGS);
      } catch {
        errors++;
        if (++failures >= MAX_LOOP_ERRORS) return;
        continue;
      }
      const ended = performance.now();
      if (ended >= windowStart && ended <= windowEnd) latencies.push(ended - started);
    }
  };
  const loops = active.map(loop);
  await sleep(plan.levelWarmMs);
  const cpuBefore = cpuTimes();
  const harnessBefore = process.cpuUsage();
  windowStart = performance.now();
  await sleep(plan.levelMs);
  windowEnd = performance.now();
  const harness = process.cpuUsage(harnessBefore);
  const cpuAfter = cpuTimes();
  stop = true;
  await settleWithin(Promise.all(loops), 35_000);
  const seconds = (windowEnd - windowStart) / 1000;
  const summary = summarize(latencies);
  return {
    clients: active.length,
    calls_per_s: Math.round(latencies.length / seconds),
    p50_ms: summary.p50_ms,
    p99_ms: summary.p99_ms,
    errors,
    machine_cpu_pct: round((100 * (cpuAfter.busy - cpuBefore.busy)) / Math.max(1, cpuAfter.total - cpuBefore.total), 1),
    harness_cpu_pct: round(((harness.user + harness.system) / 1000 / (seconds * 1000)) * 100, 1),
  };
}
