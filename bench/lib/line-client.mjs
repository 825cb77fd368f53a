// @ts-check
// A client that speaks newline-delimited JSON-RPC to a child it spawns, with no SDK in between, so
// what is timed is the target alone: `request` resolves with the answer and the ms from send to
// answer. The child is registered (procs.mjs) so an interrupted run still stops it.
import { spawn } from 'node:child_process';
import { ROOT_DIR } from './root-modules.mjs';
import { registerPid, stopTree, unregisterPid } from './procs.mjs';

const READY_TIMEOUT_MS = 30_000;

/**
 * Spawns `node args...` and, when `ready` is given, waits until its stderr satisfies it. `env` is
 * added to this process's environment. With `stamp` (a clock), each answer also carries `sent` (taken
 * right before the request's write) and `received` (taken as the chunk holding the answer arrived).
 * @param {string[]} args
 * @param {{ ready?: (stderr: string) => boolean, env?: Record<string, string>, stamp?: () => number }} [options]
 */
export async function lineClient(args, { ready, env, stamp } = {}) {
  const child = spawn(process.execPath, args, { cwd: ROOT_DIR, stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1', ...env } });
  const pid = /** @type {number} */ (child.pid);
  registerPid(pid);
  /** @type {Map<number, { answered: (message: any, received: number) => void, failed: (error: Error) => void }>} */
  const waiting = new Map();
  // A child that exits fails what waits on it (a run then stops with the reason instead of hanging).
  child.once('close', (code, signal) => {
    for (const [id, request] of waiting) request.failed(new Error(`${args.join(' ').slice(0, 120)} exited (${signal ?? code}) while request ${id} waited`));
    waiting.clear();
  });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk) => {
    const received = stamp ? stamp() : 0;
    out += chunk;
    for (let at = out.indexOf('\n'); at !== -1; at = out.indexOf('\n')) {
      const line = out.slice(0, at);
      out = out.slice(at + 1);
      if (!line.trim()) continue;
      const message = JSON.parse(line);
      if (message.method === undefined) waiting.get(message.id)?.answered(message, received);
    }
  });
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk) => {
    if (err.length < 64 * 1024) err += chunk; // what the ready check reads; the rest is drained
  });
  if (ready) {
    await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`not ready after ${READY_TIMEOUT_MS / 1000} s: ${err.slice(-500)}`)), READY_TIMEOUT_MS);
      const check = () => {
        if (!ready(err)) return;
        clearTimeout(timer);
        child.stderr.off('data', check);
        resolve(undefined);
      };
      child.stderr.on('data', check);
      check();
    });
  }
  let next = 1;
  return {
    child,
    /** @param {string} method @param {object} params @returns {Promise<{ ms: number, message: any, sent: number, received: number }>} */
    request(method, params) {
      const id = next++;
      const started = performance.now();
      return new Promise((resolve, reject) => {
        const answered = (/** @type {any} */ message, /** @type {number} */ received) => {
          waiting.delete(id);
          resolve({ ms: performance.now() - started, message, sent, received });
        };
        waiting.set(id, { answered, failed: reject });
        const line = `${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`;
        const sent = stamp ? stamp() : 0;
        child.stdin.write(line);
      });
    },
    /** @param {string} method @param {object} [params] */
    notify(method, params) {
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method, ...(params && { params }) })}\n`);
    },
    /** Ends its input and waits for it to exit by itself (its exit handlers run). */
    async end() {
      const closed = new Promise((resolve) => child.once('close', resolve));
      child.stdin.end();
      await closed;
      unregisterPid(pid);
    },
    async close() {
      await stopTree(pid);
      unregisterPid(pid);
    },
  };
}
