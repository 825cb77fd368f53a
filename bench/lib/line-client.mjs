// @ts-check
// A client that speaks newline-delimited JSON-RPC to a child it spawns, with no SDK in between, so
// what is timed is the target alone: `request` resolves with the answer and the ms from send to
// answer. The child is registered (procs.mjs) so an interrupted run still stops it.
import { spawn } from 'node:child_process';
import { ROOT_DIR } from './root-modules.mjs';
import { registerPid, stopTree, unregisterPid } from './procs.mjs';

const READY_TIMEOUT_MS = 30_000;

/**
 * Spawns `node args...` and, when `ready` is given, waits until its stderr satisfies it.
 * @param {string[]} args
 * @param {{ ready?: (stderr: string) => boolean }} [options]
 */
export async function lineClient(args, { ready } = {}) {
  const child = spawn(process.execPath, args, { cwd: ROOT_DIR, stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
  const pid = /** @type {number} */ (child.pid);
  registerPid(pid);
  /** @type {Map<number, (message: any) => void>} */
  const waiting = new Map();
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk) => {
    out += chunk;
    for (let at = out.indexOf('\n'); at !== -1; at = out.indexOf('\n')) {
      const line = out.slice(0, at);
      out = out.slice(at + 1);
      if (!line.trim()) continue;
      const message = JSON.parse(line);
      if (message.method === undefined) waiting.get(message.id)?.(message);
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
    /** @param {string} method @param {object} params @returns {Promise<{ ms: number, message: any }>} */
    request(method, params) {
      const id = next++;
      const started = performance.now();
      return new Promise((resolve) => {
        waiting.set(id, (message) => {
          waiting.delete(id);
          resolve({ ms: performance.now() - started, message });
        });
        child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
      });
    },
    /** @param {string} method @param {object} [params] */
    notify(method, params) {
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method, ...(params && { params }) })}\n`);
    },
    async close() {
      await stopTree(pid);
      unregisterPid(pid);
    },
  };
}
