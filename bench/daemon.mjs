#!/usr/bin/env node
// @ts-check
// What the daemon saves (issue 16, docs/performance.md "One gateway for every local client"): N
// clients each configured with the same five servers (server-everything, two server-filesystem,
// two server-memory entries: five processes per set), every client calling a tool of every server.
//   (a) each client spawns its servers itself;
//   (b) each client starts its own Switchboard stdio gateway;
//   (c) each client starts `switchboard connect`, and the shims share one daemon.
// For each: processes and total RSS of everything started, and the time from spawning a client's
// process(es) to its first answered call. Then, with the daemon running: the shim's initialize time
// (spawn to initialize answered) and the shim's cost per call (echo through a shim vs the same echo
// as a direct HTTP client of the daemon, interleaved blocks, medians).
//
//   node bench/daemon.mjs [--clients 10] [--calls 400] [--costs-only] [--json PATH]
//
// --costs-only: just the shim's initialize time and per-call cost (one daemon, no 50-process
// set-ups whose load would still be on the machine when those are timed).
//
// Uses dist/bundle/ (run `npm run build` first). Everything on 127.0.0.1; every process it
// starts is stopped by PID (the daemon with `switchboard daemon stop`).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT_DIR, rootImport } from './lib/root-modules.mjs';
import { killAllStarted, registerPid, statusKb, treePids, unregisterPid } from './lib/procs.mjs';
import { median, quantile, round } from './lib/stats.mjs';

const { values } = parseArgs({ options: { clients: { type: 'string', default: '10' }, calls: { type: 'string', default: '400' }, 'costs-only': { type: 'boolean', default: false }, json: { type: 'string' } } });
const CLIENTS = Number(values.clients);
const CALLS = Number(values.calls);
const { Client, StreamableHTTPClientTransport } = await rootImport('@modelcontextprotocol/client');
const { StdioClientTransport } = await rootImport('@modelcontextprotocol/client', './stdio');
const CLI = path.join(ROOT_DIR, 'dist/bundle/main.js');

const tmp = mkdtempSync(path.join(os.tmpdir(), 'switchboard-daemon-bench-'));
const serverBin = (/** @type {string} */ pkg) => path.join(ROOT_DIR, `node_modules/@modelcontextprotocol/server-${pkg}/dist/index.js`);
for (const dir of ['fs1', 'fs2']) mkdirSync(path.join(tmp, dir));
/** @typedef {{command: string, args: string[], env?: Record<string, string>}} ServerSpec */
/** @typedef {'everything' | 'files' | 'notes' | 'memory' | 'graph'} ServerKey */
/** The five servers every client is configured with. @type {Record<ServerKey, ServerSpec>} */
const SERVERS = {
  everything: { command: process.execPath, args: [serverBin('everything'), 'stdio'] },
  files: { command: process.execPath, args: [serverBin('filesystem'), path.join(tmp, 'fs1')] },
  notes: { command: process.execPath, args: [serverBin('filesystem'), path.join(tmp, 'fs2')] },
  memory: { command: process.execPath, args: [serverBin('memory')], env: { MEMORY_FILE_PATH: path.join(tmp, 'memory.jsonl') } },
  graph: { command: process.execPath, args: [serverBin('memory')], env: { MEMORY_FILE_PATH: path.join(tmp, 'graph.jsonl') } },
};
/** One cheap call per server: [server, tool, arguments]. @type {Array<[ServerKey, string, Record<string, unknown>]>} */
const FIRST_CALLS = [
  ['everything', 'echo', { message: 'hi' }],
  ['files', 'list_allowed_directories', {}],
  ['notes', 'list_allowed_directories', {}],
  ['memory', 'read_graph', {}],
  ['graph', 'read_graph', {}],
];
const config = path.join(tmp, '.mcp.json');
writeFileSync(config, JSON.stringify({ mcpServers: SERVERS }));
const dataDir = path.join(tmp, 'data');

process.on('exit', () => {
  killAllStarted();
  // The daemon is detached (not in any client's tree): stopped by its own command, by PID.
  try {
    execFileSync(process.execPath, [CLI, 'daemon', 'stop', '--config', config, '--data-dir', dataDir], { stdio: 'ignore', timeout: 15_000 });
  } catch {
    // none was started
  }
});
process.on('SIGINT', () => process.exit(130));

/** @typedef {import('@modelcontextprotocol/client').Client} McpClient */
/** @typedef {{client: McpClient, pid: number}} Entry */
/** @typedef {{processes: number, rssMb: number}} Footprint */
/** @typedef {{pid: number, url: string}} DaemonState */
/** @typedef {{initializeMs: number[], viaShim: number[], viaHttp: number[]}} Costs */

const newClient = () => new Client({ name: 'daemon-bench', version: '1.0.0' }, { capabilities: {} });

/**
 * Spawns a stdio client; resolves when initialize was answered.
 * @param {string} command
 * @param {string[]} args
 * @param {Record<string, string>} [env]
 * @returns {Promise<Entry>}
 */
async function stdioClient(command, args, env = {}) {
  const client = newClient();
  // process.env has no undefined values at run time
  const transport = new StdioClientTransport({ command, args, env: /** @type {Record<string, string>} */ ({ ...process.env, ...env }), stderr: 'ignore', cwd: ROOT_DIR });
  await client.connect(transport);
  registerPid(/** @type {number} */ (transport.pid));
  return { client, pid: /** @type {number} */ (transport.pid) };
}

/**
 * Sum of VmRSS (kB) and count of the live processes in these trees (each pid counted once).
 * @param {number[]} roots
 * @returns {Footprint}
 */
function footprint(roots) {
  const pids = new Set(roots.flatMap((pid) => treePids(pid)));
  let rssKb = 0;
  for (const pid of pids) rssKb += statusKb(pid, 'VmRSS') ?? 0;
  return { processes: pids.size, rssMb: /** @type {number} */ (round(rssKb / 1024, 1)) }; // a finite number: never null
}

/** @param {Entry[]} entries */
async function closeAll(entries) {
  await Promise.all(entries.map(async ({ client, pid }) => {
    await client.close().catch(() => undefined);
    unregisterPid(pid);
  }));
}

/** (a): each client spawns every server; its first call is the slowest of its servers' first calls. */
async function direct() {
  /** @type {Entry[]} */
  const entries = [];
  /** @type {number[]} */
  const firstCallMs = [];
  await Promise.all(Array.from({ length: CLIENTS }, async () => {
    const started = performance.now();
    const mine = await Promise.all(FIRST_CALLS.map(async ([key, tool, args]) => {
      const spec = SERVERS[key];
      const entry = await stdioClient(spec.command, spec.args, spec.env ?? {});
      await entry.client.callTool({ name: tool, arguments: args });
      return entry;
    }));
    firstCallMs.push(performance.now() - started);
    entries.push(...mine);
  }));
  const measured = footprint(entries.map((e) => e.pid));
  await closeAll(entries);
  return { ...measured, firstCallMs };
}

/** Calls every server once through a gateway client (exposed names `<server>_<tool>`). @param {McpClient} client */
async function callEveryServer(client) {
  for (const [key, tool, args] of FIRST_CALLS) await client.callTool({ name: `${key}_${tool}`, arguments: args });
}

/** (b): one Switchboard stdio gateway per client. */
async function gatewayPerClient() {
  /** @type {Entry[]} */
  const entries = [];
  /** @type {number[]} */
  const firstCallMs = [];
  await Promise.all(Array.from({ length: CLIENTS }, async (_, i) => {
    const started = performance.now();
    const entry = await stdioClient(process.execPath, [CLI, 'serve', '--stdio', '--config', config, '--data-dir', path.join(tmp, `gw-${i}`), '--log-level', 'warn', '--no-log-file']);
    await entry.client.callTool({ name: 'memory_read_graph', arguments: {} });
    firstCallMs.push(performance.now() - started);
    await callEveryServer(entry.client);
    entries.push(entry);
  }));
  const measured = footprint(entries.map((e) => e.pid));
  await closeAll(entries);
  return { ...measured, firstCallMs };
}

/** @returns {DaemonState} */
function daemonPid() {
  const state = JSON.parse(execFileSync('cat', [path.join(dataDir, 'daemon', 'state.json')], { encoding: 'utf8' }));
  return /** @type {DaemonState} */ (state);
}

// As `switchboard install` writes a shim entry (src/cli/import.ts SHIM_NODE_FLAGS).
const shimArgs = ['--max-semi-space-size=1', CLI, 'connect', '--config', config, '--data-dir', dataDir];

/** (c): shims sharing one daemon (the first shim starts it). */
async function shims() {
  /** @type {Entry[]} */
  const entries = [];
  /** @type {number[]} */
  const firstCallMs = [];
  await Promise.all(Array.from({ length: CLIENTS }, async () => {
    const started = performance.now();
    const entry = await stdioClient(process.execPath, shimArgs);
    await entry.client.callTool({ name: 'memory_read_graph', arguments: {} });
    firstCallMs.push(performance.now() - started);
    await callEveryServer(entry.client);
    entries.push(entry);
  }));
  const daemon = daemonPid();
  const measured = footprint([...entries.map((e) => e.pid), daemon.pid]);
  return { ...measured, firstCallMs, entries, daemon };
}

/**
 * With the daemon running: spawn-to-initialize of a shim, and its cost per call against a direct HTTP client.
 * @param {DaemonState} daemon
 * @returns {Promise<Costs>}
 */
async function shimCosts(daemon) {
  /** @type {number[]} */
  const initializeMs = [];
  for (let i = 0; i < 10; i++) {
    const started = performance.now();
    const entry = await stdioClient(process.execPath, shimArgs);
    initializeMs.push(performance.now() - started);
    await closeAll([entry]);
  }
  const shim = await stdioClient(process.execPath, shimArgs);
  const token = execFileSync('cat', [path.join(dataDir, 'daemon', 'token')], { encoding: 'utf8' }).trim();
  const http = newClient();
  await http.connect(new StreamableHTTPClientTransport(new URL(`${daemon.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  const echo = { name: 'everything_echo', arguments: { message: 'x' } };
  for (let i = 0; i < 50; i++) {
    await shim.client.callTool(echo);
    await http.callTool(echo);
  }
  /** @type {number[]} */
  const viaShim = [];
  /** @type {number[]} */
  const viaHttp = [];
  const BLOCK = 20;
  for (let done = 0; done < CALLS; done += BLOCK) {
    /** @type {Array<[McpClient, number[]]>} */
    const order = (done / BLOCK) % 2 === 0 ? [[shim.client, viaShim], [http, viaHttp]] : [[http, viaHttp], [shim.client, viaShim]];
    for (const [client, samples] of order) {
      for (let i = 0; i < BLOCK; i++) {
        const started = performance.now();
        await client.callTool(echo);
        samples.push(performance.now() - started);
      }
    }
  }
  await http.close();
  await closeAll([shim]);
  return { initializeMs, viaShim, viaHttp };
}

const load = () => os.loadavg()[0].toFixed(1);
const ms = (/** @type {number | null} */ v) => `${round(v, 1)} ms`;
// A median is null only with no samples (--calls 0); `?? 0` is what the subtraction made of null.
const costLines = (/** @type {Costs} */ costs) => [
  `shim initialize with the daemon running (spawn to answer, 10 runs): p50 ${ms(median(costs.initializeMs))}, max ${ms(Math.max(...costs.initializeMs))} (goal < 300 ms)`,
  `echo call p50: shim ${ms(median(costs.viaShim))}, direct HTTP ${ms(median(costs.viaHttp))}: the shim adds ${ms((median(costs.viaShim) ?? 0) - (median(costs.viaHttp) ?? 0))} (goal < 0.3 ms); p90 ${ms(quantile(costs.viaShim, 0.9))} vs ${ms(quantile(costs.viaHttp, 0.9))}`,
];
process.stderr.write(`daemon bench: ${CLIENTS} clients x 5 servers, load ${load()}\n`);
let report;
if (values['costs-only']) {
  const entry = await stdioClient(process.execPath, shimArgs); // starts the daemon
  await entry.client.callTool({ name: 'everything_echo', arguments: { message: 'warm' } });
  const costs = await shimCosts(daemonPid());
  await closeAll([entry]);
  report = { costs };
  process.stdout.write(`${[`load ${load()} at the end`, ...costLines(costs)].join('\n')}\n`);
} else {
  const a = await direct();
  process.stderr.write(`(a) done, load ${load()}\n`);
  const b = await gatewayPerClient();
  process.stderr.write(`(b) done, load ${load()}\n`);
  const c = await shims();
  const costs = await shimCosts(c.daemon);
  await closeAll(c.entries);
  /** @type {Array<[string, Footprint & {firstCallMs: number[]}]>} */
  const rows = [
    ['(a) each client spawns its servers', a],
    ['(b) a Switchboard stdio gateway per client', b],
    ['(c) shims and one daemon', c],
  ];
  const lines = [
    `${CLIENTS} clients, 5 servers each, load ${load()} at the end`,
    '',
    '| setup | processes | total RSS | first call p50 | first call max |',
    '|---|---:|---:|---:|---:|',
    ...rows.map(([name, r]) => `| ${name} | ${r.processes} | ${r.rssMb} MB | ${ms(median(r.firstCallMs))} | ${ms(Math.max(...r.firstCallMs))} |`),
    '',
    `(c) vs (a): ${round(c.rssMb / a.rssMb * 100, 1)} % of the memory, ${c.processes} processes vs ${a.processes} (goal: <= ${5 + 1 + CLIENTS}, under a third of the memory)`,
    ...costLines(costs),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  const { entries, daemon, ...shimRows } = c;
  report = { direct: a, gatewayPerClient: b, shims: shimRows, costs };
}
if (values.json) writeFileSync(values.json, JSON.stringify({ clients: CLIENTS, load: os.loadavg(), ...report }, null, 2));
process.exit(0);
