// @ts-check
// `npm run bench -- --request-log`: what `--log-requests` (setting logRequests) costs per call
// (issue 21). Two parts, one run, the same method as --recording (see recording.mjs):
//
// 1. In isolation, in this process, against the run's copy of dist/: minting a correlation id (paid
//    on every call, request logging or not), and the request log's line per call written to a
//    file, without and with argument values (logArguments).
// 2. The stdio face end to end: gateways with logRequests on and off (both writing their per-run
//    log file at --log-level warn, both recording calls), interleaved rounds of sequential
//    `tools/call echo`; the throughput ratio and the gateway's CPU µs per call, on minus off.
import { mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { machineInfo, loadAverage, gitRevision } from './report.mjs';
import { quantile } from './stats.mjs';
import { callsInARow, fmt, measure, renderEndToEnd, roundOrder, startVariants, summarize, timeOp } from './recording.mjs';

/** @param {{tmp: string, root: string, ops: number}} options */
async function microBench({ tmp, root, ops }) {
  const dist = (/** @type {string} */ file) => import(pathToFileURL(path.join(root, 'dist', file)).href);
  const [{ createRootLogger, fileLogger }, { RequestLog }, { correlationOf }] = await Promise.all([dist('logging/logger.js'), dist('logging/request-log.js'), dist('logging/correlation.js')]);
  const dir = mkdtempSync(path.join(tmp, 'request-log-'));
  try {
    createRootLogger({ level: 'warn', pretty: false, fileFd: openSync(path.join(dir, 'micro.log'), 'a'), stderr: false });
    const log = fileLogger(); // where serve's request lines go when it has a log file
    const plain = new RequestLog(log, { logArguments: false });
    const withArgs = new RequestLog(log, { logArguments: true });
    const args = { message: 'hello' };
    const result = { content: [{ type: 'text', text: 'Echo: hello' }] };
    /** @param {any} requestLog */
    const oneCall = (requestLog) => {
      const ctx = {};
      const fields = { requestId: 7, correlationId: correlationOf(ctx), session: '0d6c1c0e-6b2a-4a43-9d6c-3f0b6f9e2a11', method: 'tools/call', server: 'echo', tool: 'echo_echo' };
      requestLog.request(fields, args, { durationMs: 0.21, status: 'ok', result });
    };
    return {
      correlation_id: timeOp(ops, () => correlationOf({})),
      request_log_call: timeOp(ops, () => oneCall(plain)),
      request_log_call_arguments: timeOp(ops, () => oneCall(withArgs)),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** @param {any} micro */
function renderMicro(micro) {
  const rows = [
    ['correlation id minted (every call, request logging or not)', micro.correlation_id],
    ['request log, one call (its line, to the file)', micro.request_log_call],
    ['the same with `logArguments` (arguments redacted and bounded)', micro.request_log_call_arguments],
  ];
  return [
    '| request log, in isolation | CPU µs | wall µs | p50 / p99 µs |',
    '|---|---:|---:|---:|',
    ...rows.map(([label, r]) => `| ${label} | ${fmt(r.cpu_us, 2)} | ${fmt(r.wall_us, 2)} | ${fmt(r.p50_us, 1)} / ${fmt(r.p99_us, 1)} |`),
  ].join('\n');
}

/**
 * @param {{tmp: string, gateway: {root: string, main: string, revision: {commit: string | null, src_dirty: boolean | null}}, progress: (line: string) => void,
 *   rounds: number, calls: number, pairs: number, processes: number, warmup: number, microOps: number, json?: string}} options
 */
export async function requestLogBench({ tmp, gateway, progress, rounds, calls, pairs, processes, warmup, microOps, json }) {
  const machine = machineInfo();
  const loadBefore = loadAverage();
  const startedAt = new Date();
  progress(`request log in isolation (${microOps} operations each)`);
  const micro = await microBench({ tmp, root: gateway.root, ops: microOps });
  /** @type {any[]} */
  const gateways = [];
  /** @type {any[]} */
  const samples = [];
  try {
    const settingsFor = (/** @type {'on' | 'off'} */ variant) => (variant === 'on' ? { logRequests: true } : undefined);
    progress(`starting ${processes} gateway(s) with logRequests on and ${processes} with it off`);
    const { on, off } = await startVariants(processes, { tmp, main: gateway.main, gateways, aa: false, settingsFor });
    progress(`warming up every gateway (${warmup} calls each)`);
    for (const gw of gateways) await callsInARow(gw, warmup);
    for (let r = 0; r < rounds; r++) {
      const order = roundOrder(on, off, r, pairs);
      for (let b = 0; b < order.length; b++) samples.push(await measure(order[b], r, Math.floor(b / 2), calls));
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
    `## Cost of request logging (${startedAt.toISOString()})`,
    '',
    `Machine: ${machine.cpu}, ${machine.cores} cores, Node ${machine.node}. Load average ${loadBefore.join(' / ')} before, ${loadAfter.join(' / ')} after ` +
      `(median 1-minute figure: ${fmt(quantile([loadBefore[0], loadAfter[0]], 0.5), 2)}).`,
    `Gateway built from ${revision.commit ?? 'an unknown commit'}${gateway.revision.src_dirty ? ' with uncommitted changes in src/' : ''}; every gateway at --log-level warn writing its per-run log file and recording calls.`,
    `End to end: ${processes} gateway process(es) per variant, each ${warmup} warm-up calls, then ${rounds} rounds of ${pairs} adjacent (on, off) pairs of ${calls} sequential calls.`,
    '',
    renderMicro(micro),
    '',
    renderEndToEnd(summary, 'logRequests'),
    '',
  ].join('\n');
  process.stdout.write(text);
  if (json) {
    writeFileSync(path.resolve(json), `${JSON.stringify({ machine, load_before: loadBefore, load_after: loadAfter, revision, plan: { rounds, pairs, calls, processes, warmup, microOps }, micro, summary, samples }, null, 2)}\n`);
    progress(`wrote ${path.resolve(json)}`);
  }
}
