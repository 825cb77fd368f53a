// @ts-check
// `npm run bench -- --gateway-rss`: the gateway's own resident memory (its process alone, children
// excluded) over stdio and over HTTP with one echo server behind it, at a few points of a short
// workload, and its peak (VmHWM, the kernel's high-water mark).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { openSession } from './client.mjs';
import { startServer, freePort, statusKb, treePids } from './procs.mjs';
import { machineInfo, loadAverage } from './report.mjs';
import { ECHO_SERVER } from './targets.mjs';

const CALLS = 2_000;
const PAYLOADS = 20;
const SESSIONS = 32;
const PAYLOAD_BYTES = 64 * 1024;
/** How long the gateway is left quiet after the calls: `serve` collects its heap after 6-8 s of quiet, and once more 6-8 s later when V8 kept its young generation grown (src/cli/idle-heap-trim.ts). */
const QUIET_MS = 20_000;

/** @param {number} kb */
const mb = (kb) => Math.round((kb / 1024) * 10) / 10;

/**
 * @param {import('./client.mjs').Session} session
 * @param {string} prefix '' or 'echo_'
 */
async function workload(session, prefix) {
  for (let i = 0; i < CALLS; i++) await session.call(`${prefix}echo`, { message: 'hello' });
}

/** @param {import('./client.mjs').Session} session @param {string} prefix */
async function payloads(session, prefix) {
  for (let i = 0; i < PAYLOADS; i++) await session.call(`${prefix}payload`, { bytes: PAYLOAD_BYTES });
}

/** RSS once the gateway has been left quiet for QUIET_MS. @param {number} pid */
async function quietMb(pid) {
  await new Promise((resolve) => setTimeout(resolve, QUIET_MS));
  return mb(statusKb(pid, 'VmRSS'));
}

/** The echo server's RSS (the gateway's children), for reference. @param {number} pid */
function childrenMb(pid) {
  return mb(treePids(pid).slice(1).reduce((sum, p) => sum + statusKb(p, 'VmRSS'), 0));
}

/** @param {{tmp: string, gatewayMain: string, progress: (line: string) => void, json?: string}} options */
export async function gatewayRss({ tmp, gatewayMain, progress, json }) {
  const config = path.join(tmp, 'rss.mcp.json');
  writeFileSync(config, JSON.stringify({ mcpServers: { echo: { command: process.execPath, args: [ECHO_SERVER, '--stdio'] } } }));
  const common = ['serve', '--log-level', 'warn', '--data-dir', path.join(tmp, 'data'), '--config', config];
  /** @type {Array<Record<string, any>>} */
  const rows = [];

  progress('stdio face');
  {
    const { session } = await openSession({ kind: 'stdio', command: process.execPath, args: [gatewayMain, ...common, '--stdio'] });
    const pid = /** @type {number} */ (session.pid);
    try {
      /** @type {Record<string, any>} */
      const row = { face: 'stdio', initialized_mb: mb(statusKb(pid, 'VmRSS')) };
      await session.listTools();
      row.listed_mb = mb(statusKb(pid, 'VmRSS'));
      await workload(session, 'echo_');
      row.after_calls_mb = mb(statusKb(pid, 'VmRSS'));
      row.quiet_mb = await quietMb(pid);
      await payloads(session, 'echo_');
      row.after_payloads_mb = mb(statusKb(pid, 'VmRSS'));
      row.sessions_mb = null;
      row.peak_mb = mb(statusKb(pid, 'VmHWM'));
      row.children_mb = childrenMb(pid);
      rows.push(row);
    } finally {
      await session.close();
    }
  }

  progress('HTTP face');
  {
    const port = await freePort();
    const server = await startServer({ command: process.execPath, args: [gatewayMain, ...common, '--http', '--host', '127.0.0.1', '--port', String(port)], cwd: tmp, port });
    /** @type {import('./client.mjs').Session[]} */
    const sessions = [];
    try {
      const endpoint = /** @type {const} */ ({ kind: 'http', url: `http://127.0.0.1:${port}/mcp` });
      /** @type {Record<string, any>} */
      const row = { face: 'http', started_mb: mb(statusKb(server.pid, 'VmRSS')) };
      const { session } = await openSession(endpoint);
      sessions.push(session);
      row.initialized_mb = mb(statusKb(server.pid, 'VmRSS'));
      await session.listTools();
      row.listed_mb = mb(statusKb(server.pid, 'VmRSS'));
      await workload(session, 'echo_');
      row.after_calls_mb = mb(statusKb(server.pid, 'VmRSS'));
      row.quiet_mb = await quietMb(server.pid);
      await payloads(session, 'echo_');
      row.after_payloads_mb = mb(statusKb(server.pid, 'VmRSS'));
      for (let i = 1; i < SESSIONS; i++) sessions.push((await openSession(endpoint)).session);
      await Promise.all(sessions.map(async (s) => {
        for (let i = 0; i < 100; i++) await s.call('echo_echo', { message: 'hello' });
      }));
      row.sessions_mb = mb(statusKb(server.pid, 'VmRSS'));
      row.peak_mb = mb(statusKb(server.pid, 'VmHWM'));
      row.children_mb = childrenMb(server.pid);
      rows.push(row);
    } finally {
      await Promise.all(sessions.map((s) => s.close()));
      await server.stop();
    }
  }

  const cell = (/** @type {unknown} */ v) => (typeof v === 'number' ? v.toFixed(1) : '–');
  const machine = machineInfo();
  const lines = [
    `Switchboard gateway RSS (its own process, children excluded), ${new Date().toISOString()}`,
    `Machine: ${machine.cpu}, ${machine.cores} cores, Node ${machine.node}; load average ${loadAverage().join(' ')}`,
    '',
    `| face | started | initialized | after tools/list | after ${CALLS} calls | then ${QUIET_MS / 1000} s quiet | after ${PAYLOADS} × 64 KB | ${SESSIONS} sessions × 100 calls | peak (VmHWM) | echo server (child) |`,
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map((r) => `| ${r.face} | ${cell(r.started_mb)} | ${cell(r.initialized_mb)} | ${cell(r.listed_mb)} | ${cell(r.after_calls_mb)} | ${cell(r.quiet_mb)} | ${cell(r.after_payloads_mb)} | ${cell(r.sessions_mb)} | ${cell(r.peak_mb)} | ${cell(r.children_mb)} |`),
    '',
    'MB of VmRSS; "started" is before any client for HTTP (a stdio gateway is measured once its client has initialized).',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  if (json) writeFileSync(path.resolve(json), `${JSON.stringify({ machine, rows }, null, 2)}\n`);
}
