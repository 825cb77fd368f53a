#!/usr/bin/env node
// @ts-check
// The floor of any stdio gateway on this machine: a process between the client and the echo server
// that does the least a relay can do. `--pipe`: bytes copied both ways, nothing parsed. `--json`: each
// line parsed, the request id replaced by one of the relay's own (and put back on the answer),
// re-serialized and written; what a JSON-RPC relay must do at minimum. Used by bench/ab-stdio.mjs
// (variants `pipe-relay`, `json-relay`) to say how much of the gateway's cost is the hop itself.
//
//   node bench/relay-floor.mjs (--pipe | --json) -- <command> [args...]
import { spawn } from 'node:child_process';

const dash = process.argv.indexOf('--');
const mode = process.argv[2];
if (dash < 0 || (mode !== '--pipe' && mode !== '--json')) {
  process.stderr.write('usage: relay-floor.mjs (--pipe | --json) -- <command> [args...]\n');
  process.exit(2);
}
const [command, ...args] = process.argv.slice(dash + 1);
const child = spawn(/** @type {string} */ (command), args, { stdio: ['pipe', 'pipe', 'inherit'] });
child.on('exit', (code) => process.exit(code ?? 0));
process.stdin.on('end', () => child.stdin.end());

if (mode === '--pipe') {
  process.stdin.pipe(child.stdin);
  child.stdout.pipe(process.stdout);
} else {
  /** Relay id -> the client's id. @type {Map<number, unknown>} */
  const pending = new Map();
  let nextId = 1;
  /** @param {NodeJS.ReadableStream} from @param {(message: any) => void} onMessage */
  const lines = (from, onMessage) => {
    let rest = '';
    from.setEncoding('utf8');
    from.on('data', (chunk) => {
      const text = rest + chunk;
      let start = 0;
      for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', start)) {
        if (at > start) onMessage(JSON.parse(text.slice(start, at)));
        start = at + 1;
      }
      rest = text.slice(start);
    });
  };
  lines(process.stdin, (message) => {
    if (message.id !== undefined && message.method !== undefined) {
      const id = nextId++;
      pending.set(id, message.id);
      message.id = id;
    }
    child.stdin.write(`${JSON.stringify(message)}\n`);
  });
  lines(child.stdout, (message) => {
    if (message.id !== undefined && message.method === undefined && pending.has(message.id)) {
      const original = pending.get(message.id);
      pending.delete(message.id);
      message.id = original;
    }
    process.stdout.write(`${JSON.stringify(message)}\n`);
  });
}
