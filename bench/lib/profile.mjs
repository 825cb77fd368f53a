// @ts-check
// `npm run bench -- --profile`: runs the gateway under `node --cpu-prof` (stdio face, then HTTP face,
// one stdio echo server behind it), drives a sequential tools/call workload through it, and
// summarizes the steady-state part of the profile (start-up and shutdown are cut off). The raw
// .cpuprofile files are kept in bench/results/ for Chrome DevTools or speedscope.
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { analyzeProfile } from './cpuprofile.mjs';
import { openSession } from './client.mjs';
import { freePort, processCpuMs, startServer, statusKb, treeCpuMs } from './procs.mjs';
import { machineInfo, loadAverage } from './report.mjs';
import { BENCH_DIR, ECHO_SERVER } from './targets.mjs';

const WARMUP_CALLS = 3_000;
const SAMPLING_INTERVAL_US = 200;
const TOP = 25;

/** @param {string} dir @param {number} timeoutMs */
async function waitForProfile(dir, timeoutMs) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const file = existsSync(dir) ? readdirSync(dir).find((f) => f.endsWith('.cpuprofile')) : undefined;
    if (file) {
      // written in one go at exit; give the writer a moment to finish
      await sleep(200);
      return path.join(dir, file);
    }
    await sleep(100);
  }
  throw new Error(`no .cpuprofile appeared in ${dir} within ${timeoutMs} ms`);
}

/**
 * Runs the workload on one face and returns the analysis.
 * @param {'stdio' | 'http'} face
 * @param {{tmp: string, gateway: {root: string, main: string}, progress: (line: string) => void, calls: number}} options
 */
async function profileFace(face, { tmp, gateway, progress, calls }) {
  const dir = path.join(tmp, `prof-${face}`);
  const config = path.join(tmp, 'profile.mcp.json');
  writeFileSync(config, JSON.stringify({ mcpServers: { echo: { command: process.execPath, args: [ECHO_SERVER, '--stdio'] } } }));
  const nodeArgs = ['--cpu-prof', '--cpu-prof-dir', dir, '--cpu-prof-interval', String(SAMPLING_INTERVAL_US)];
  // Default settings (log level info, recording on): what users run.
  const serveArgs = [gateway.main, 'serve', '--data-dir', path.join(tmp, 'data'), '--config', config];
  const spawnedAt = performance.now();
  /** @type {{stop: () => Promise<void>, pid: number} | undefined} */
  let server;
  /** @type {import('./client.mjs').Session} */
  let session;
  if (face === 'stdio') {
    ({ session } = await openSession({ kind: 'stdio', command: process.execPath, args: [...nodeArgs, ...serveArgs, '--stdio'] }));
  } else {
    const port = await freePort();
    server = await startServer({ command: process.execPath, args: [...nodeArgs, ...serveArgs, '--http', '--host', '127.0.0.1', '--port', String(port)], cwd: tmp, port });
    ({ session } = await openSession({ kind: 'http', url: `http://127.0.0.1:${port}/mcp` }));
  }
  const gatewayPid = /** @type {number} */ (session.pid ?? server?.pid);
  let window;
  let cpuMs;
  try {
    await session.listTools();
    for (let i = 0; i < WARMUP_CALLS; i++) await session.call('echo_echo', { message: 'hello' });
    const startedAt = performance.now();
    const cpuBefore = treeCpuMs([gatewayPid]);
    const gatewayBefore = ownCpuMs(gatewayPid);
    for (let i = 0; i < calls; i++) await session.call('echo_echo', { message: 'hello' });
    const endedAt = performance.now();
    cpuMs = { tree: treeCpuMs([gatewayPid]) - cpuBefore, gateway: ownCpuMs(gatewayPid) - gatewayBefore };
    window = { skipUs: (startedAt - spawnedAt) * 1000, untilUs: (endedAt - spawnedAt) * 1000, wallMs: endedAt - startedAt };
    progress(`${face}: ${calls} calls in ${Math.round(endedAt - startedAt)} ms (${Math.round(((endedAt - startedAt) * 1000) / calls)} µs each); gateway RSS ${Math.round(statusKb(gatewayPid, 'VmRSS') / 1024)} MB`);
  } finally {
    await session.close(); // stdio: stdin closes and the gateway exits, writing its profile
    await server?.stop(); // HTTP: SIGTERM, a clean shutdown, the profile is written at exit
  }
  const file = await waitForProfile(dir, 15_000);
  const resultsDir = path.join(BENCH_DIR, 'results');
  mkdirSync(resultsDir, { recursive: true });
  const kept = path.join(resultsDir, `gateway-${face}.cpuprofile`);
  copyFileSync(file, kept);
  const analysis = analyzeProfile(JSON.parse(readFileSync(file, 'utf8')), { ...window, root: gateway.root });
  return {
    face,
    calls,
    wall_us_per_call: Math.round((window.wallMs * 1000) / calls),
    gateway_cpu_us_per_call: Math.round((cpuMs.gateway * 1000) / calls),
    tree_cpu_us_per_call: Math.round((cpuMs.tree * 1000) / calls),
    profile: path.relative(process.cwd(), kept),
    ...analysis,
  };
}

/** CPU ms of one process alone (user + system). @param {number} pid */
function ownCpuMs(pid) {
  try {
    const { user, system } = processCpuMs(pid);
    return user + system;
  } catch {
    return 0;
  }
}

/** @param {Awaited<ReturnType<typeof profileFace>>} r */
function render(r) {
  const lines = [
    `### ${r.face} face: ${r.calls} sequential echo calls after ${WARMUP_CALLS} warm-up calls`,
    '',
    `Wall ${r.wall_us_per_call} µs per call; gateway process CPU ${r.gateway_cpu_us_per_call} µs per call (gateway + echo server ${r.tree_cpu_us_per_call} µs), with the profiler on.`,
    `Profiled busy time ${r.busy_ms} ms, idle ${r.idle_ms} ms. Raw profile: ${r.profile}`,
    '',
    '| area (self time) | ms | % of busy |',
    '|---|---:|---:|',
    ...r.areas.slice(0, 15).map((a) => `| ${a.area} | ${a.ms} | ${a.pct} |`),
    '',
    `| top functions by self time | where | ms | % |`,
    '|---|---|---:|---:|',
    ...r.self.slice(0, TOP).map((f) => `| ${f.name} | ${f.where || f.area} | ${f.ms} | ${f.pct} |`),
    '',
    '| Switchboard functions, inclusive time | where | ms | % |',
    '|---|---|---:|---:|',
    ...r.switchboard_inclusive.slice(0, 15).map((f) => `| ${f.name} | ${f.where} | ${f.ms} | ${f.pct} |`),
    '',
  ];
  return lines.join('\n');
}

/** @param {{tmp: string, gateway: {root: string, main: string}, progress: (line: string) => void, calls: number, json?: string, faces?: string[]}} options */
export async function profileGateway({ tmp, gateway, progress, calls, json, faces = ['stdio', 'http'] }) {
  const machine = machineInfo();
  const loadBefore = loadAverage();
  const results = [];
  for (const face of /** @type {Array<'stdio' | 'http'>} */ (faces.filter((f) => f === 'stdio' || f === 'http'))) {
    progress(`profiling the ${face} face (${calls} calls)`);
    results.push(await profileFace(face, { tmp, gateway, progress, calls }));
  }
  const header = [
    `## Gateway CPU profile (${new Date().toISOString()})`,
    '',
    `Machine: ${machine.cpu}, ${machine.cores} cores, Node ${machine.node}; load average ${loadBefore.join(' ')} before, ${loadAverage().join(' ')} after.`,
    `node --cpu-prof --cpu-prof-interval ${SAMPLING_INTERVAL_US}; start-up, warm-up and shutdown excluded. Self time: where the CPU was when sampled.`,
    '',
  ];
  process.stdout.write(`${header.join('\n')}${results.map(render).join('\n')}`);
  if (json) writeFileSync(path.resolve(json), `${JSON.stringify({ machine, results }, null, 2)}\n`);
}
