#!/usr/bin/env node
// Entry point of the `switchboard` command: runs the compiled CLI (built by `npm install` / `npm run build`).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const compiled = new URL('../dist/cli/main.js', import.meta.url);
if (!existsSync(fileURLToPath(compiled))) {
  process.stderr.write('switchboard: not built yet. Run "npm install" (or "npm run build") in the switchboard folder first.\n');
  process.exit(1);
}
// V8's code cache for our modules on Node 22+ (src/cli/compile-cache.ts), before any of them loads.
await import(new URL('../dist/cli/compile-cache.js', import.meta.url).href);
// The stdio shim starts with every client window: it skips the full command line (docs/daemon.md).
const fast = process.argv[2] === 'connect' && (await import(new URL('../dist/cli/connect-main.js', import.meta.url).href)).connectMain;
if (!fast || !(await fast(process.argv.slice(3)))) await import(compiled.href);
