// Preloaded (`node --require`) into the peer gateways the harness runs: refuses any TCP connection
// to a host other than loopback, before a DNS lookup could happen, so a peer that phones home (a
// registry refresh, a tunnel, telemetry) fails locally instead of reaching the network. It changes
// nothing on the per-request path: only `Socket#connect` is wrapped, and a peer fronting a stdio
// server opens no outbound sockets while it serves.
// @ts-check
'use strict';
const net = require('node:net');

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|::1|\[::1\]|::ffff:127(\.\d{1,3}){3})$/i;
const original = net.Socket.prototype.connect;
let warned = 0;

/** The host a `Socket#connect(...)` call targets, or undefined for a local (IPC) path. @param {any[]} args */
function targetHost(args) {
  let first = args[0];
  if (Array.isArray(first)) first = first[0]; // net.connect() passes its normalized [options, cb]
  if (first && typeof first === 'object') return first.path ? undefined : (first.host ?? 'localhost');
  if (typeof first === 'number' || (typeof first === 'string' && /^\d+$/.test(first))) {
    return typeof args[1] === 'string' ? args[1] : 'localhost';
  }
  return undefined; // a path
}

net.Socket.prototype.connect = /** @type {typeof original} */ (/** @this {import('node:net').Socket} @param {any[]} args */ function connect(...args) {
  const host = targetHost(args);
  if (host !== undefined && !LOOPBACK.test(String(host))) {
    if (warned++ < 5) process.stderr.write(`[loopback-guard] refused a connection to ${host} (benchmarks stay on 127.0.0.1)\n`);
    const error = Object.assign(new Error(`connect ECONNREFUSED ${host} (blocked by the benchmark loopback guard)`), { code: 'ECONNREFUSED' });
    process.nextTick(() => this.destroy(error));
    return this;
  }
  return original.apply(this, /** @type {Parameters<typeof original>} */ (args));
});
