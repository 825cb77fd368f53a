// @ts-check
// `npm run bench -- --startup`: with 20 configured stdio servers, the time from starting the
// gateway (stdio face) to the first tools/list answer, with a cold cache (a fresh data dir: every
// server must start and list) and a warm one (the same data dir again: tools come from the cache,
// no server starts); then the peak RSS of the gateway's process tree with all 20 servers connected.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { openSession } from './client.mjs';
import { statusKb, treePids } from './procs.mjs';
import { loadAverage, machineInfo } from './report.mjs';
import { median, round } from './stats.mjs';
import { ECHO_SERVER } from './targets.mjs';

const SERVERS = 20;
const ROUNDS = 3;

/** @param {number} kb */
const mb = (kb) => Math.round((kb / 1024) * 10) / 10;

/**
 * One start: spawn the gateway, initialize, list tools; returns the time to the list and the tree size then.
 * @param {string} gatewayMain @param {string} config @param {string} dataDir @param {boolean} connectAll
 */
async function start(gatewayMain, config, dataDir, connectAll) {
  const started = performance.now();
  const { session } = await openSession({ kind: 'stdio', command: process.execPath, args: [gatewayMain, 'serve', '--stdio', '--log-level', 'warn', '--config', config, '--data-dir', dataDir] });
  try {
    const { tools } = await session.listTools();
    const listMs = performance.now() - started;
    const pid = /** @type {number} */ (session.pid);
    const runningAtList = treePids(pid).length - 1;
    let treeMb = null;
    let gatewayMb = null;
    if (connectAll) {
      for (let i = 0; i < SERVERS; i++) await session.call(`s${i}_echo`, { message: 'hi' });
      const tree = treePids(pid);
      treeMb = mb(tree.reduce((sum, p) => sum + statusKb(p, 'VmHWM'), 0));
      gatewayMb = mb(statusKb(pid, 'VmHWM'));
    }
    return { listMs, tools: tools.length, runningAtList, treeMb, gatewayMb };
  } finally {
    await session.close();
  }
}

/** @param {{tmp: string, gatewayMain: string, progress: (line: string) => void, json?: string}} options */
export async function startupBench({ tmp, gatewayMain, progress, json }) {
  const config = path.join(tmp, 'startup.mcp.json');
  const servers = Object.fromEntries(Array.from({ length: SERVERS }, (_, i) => [`s${i}`, { command: process.execPath, args: [ECHO_SERVER, '--stdio'] }]));
  writeFileSync(config, JSON.stringify({ mcpServers: servers }));
  const loadBefore = loadAverage();
  const cold = [];
  const warm = [];
  let memory = null;
  for (let round = 0; round < ROUNDS; round++) {
    const dataDir = path.join(tmp, `startup-data-${round}`);
    mkdirSync(dataDir, { recursive: true });
    progress(`round ${round + 1}/${ROUNDS}: cold cache`);
    cold.push(await start(gatewayMain, config, dataDir, false));
    progress(`round ${round + 1}/${ROUNDS}: warm cache`);
    warm.push(await start(gatewayMain, config, dataDir, round === ROUNDS - 1));
    if (round === ROUNDS - 1) memory = warm[warm.length - 1];
  }
  const result = {
    servers: SERVERS,
    cold_first_list_ms: round(median(cold.map((r) => r.listMs)), 1),
    cold_servers_running_at_list: median(cold.map((r) => r.runningAtList)),
    warm_first_list_ms: round(median(warm.map((r) => r.listMs)), 1),
    warm_servers_running_at_list: median(warm.map((r) => r.runningAtList)),
    tools_listed: cold[0]?.tools,
    peak_rss_tree_mb_20_connected: memory?.treeMb,
    peak_rss_gateway_mb_20_connected: memory?.gatewayMb,
    machine: machineInfo(),
    load_before: loadBefore,
    load_after: loadAverage(),
  };
  process.stdout.write(
    [
      `| ${SERVERS} stdio servers | first tools/list (median of ${ROUNDS}) | servers running at that moment |`,
      '|---|---:|---:|',
      `| cold cache | ${result.cold_first_list_ms} ms | ${result.cold_servers_running_at_list} |`,
      `| warm cache | ${result.warm_first_list_ms} ms | ${result.warm_servers_running_at_list} |`,
      '',
      `Peak RSS with all ${SERVERS} servers connected: ${result.peak_rss_tree_mb_20_connected} MB for the whole tree, ${result.peak_rss_gateway_mb_20_connected} MB for the gateway alone.`,
      `Load average before ${loadBefore.join(' / ')}, after ${result.load_after.join(' / ')}.`,
      '',
    ].join('\n'),
  );
  if (json) writeFileSync(json, `${JSON.stringify(result, null, 2)}\n`);
}
