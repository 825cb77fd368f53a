// @ts-check
// Preload (`node --import`) for bench/call-segments.mjs: stamps, in the relay process it is loaded
// into (the gateway or the JSON relay floor), when data arrives and leaves on its pipes, on the
// monotonic clock every process shares. Per call: the chunk holding the client's line emitted as
// data (fd 0), the request's write to the server begun and returned (a pipe above fd 2), the chunk
// holding the server's answer emitted as data (a pipe above fd 2 whose data starts a JSON message:
// not the server's stderr), the answer's write to the client (fd 1) begun and returned. Nothing else is changed; the
// stamps of the last CALL_SEGMENTS_KEEP calls go to the JSON file CALL_SEGMENTS_OUT at exit.
import net from 'node:net';
import { writeFileSync } from 'node:fs';

const OUT = process.env.CALL_SEGMENTS_OUT;
const KEEP = Number(process.env.CALL_SEGMENTS_KEEP ?? 10_000);
/** µs on the monotonic clock (CLOCK_MONOTONIC, the same in every process of the machine). */
const nowUs = () => Number(process.hrtime.bigint() % 1_000_000_000_000_000n) / 1000; // wraps after 11 days, not 17 minutes
/** @type {Record<'clientIn' | 'serverOutBegin' | 'serverOutEnd' | 'serverIn' | 'clientOutBegin' | 'clientOutEnd', number[]>} */
const stamps = { clientIn: [], serverOutBegin: [], serverOutEnd: [], serverIn: [], clientOutBegin: [], clientOutEnd: [] };
/** @param {any} socket @returns {number | undefined} */
const fdOf = (socket) => socket._handle?.fd;

/** Whether a chunk starts a JSON-RPC message (an answer on the server's stdout, not a line of its stderr). @param {unknown} chunk */
const startsMessage = (chunk) => (typeof chunk === 'string' ? chunk.startsWith('{') : Buffer.isBuffer(chunk) && chunk[0] === 0x7b);

const socketProto = /** @type {any} */ (net.Socket.prototype);
const emit = socketProto.emit;
socketProto.emit = function (/** @type {string} */ event, /** @type {unknown[]} */ ...args) {
  if (event === 'data') {
    const fd = fdOf(this);
    const at = nowUs();
    if (fd === 0) stamps.clientIn.push(at);
    else if (fd !== undefined && fd > 2 && startsMessage(args[0])) stamps.serverIn.push(at);
  }
  return emit.call(this, event, ...args);
};
const write = socketProto.write;
socketProto.write = function (/** @type {unknown[]} */ ...args) {
  const fd = fdOf(this);
  const toClient = fd === 1;
  const toServer = fd !== undefined && fd > 2;
  if (toClient) stamps.clientOutBegin.push(nowUs());
  else if (toServer) stamps.serverOutBegin.push(nowUs());
  const written = write.apply(this, args);
  if (toClient) stamps.clientOutEnd.push(nowUs());
  else if (toServer) stamps.serverOutEnd.push(nowUs());
  return written;
};

if (OUT) {
  process.on('exit', () => {
    /** @type {Record<string, number[]>} */
    const kept = {};
    for (const [name, list] of Object.entries(stamps)) kept[name] = list.slice(-KEEP);
    writeFileSync(OUT, JSON.stringify(kept));
  });
}
