#!/usr/bin/env node
// Entry point of the `switchboard` command: runs the bundled CLI (dist/bundle/, built by `npm install` /
// `npm run build`: tsc, then scripts/bundle.mjs).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const compiled = new URL('../dist/bundle/main.js', import.meta.url);
if (!existsSync(fileURLToPath(compiled))) {
  process.stderr.write('switchboard: not built yet. Run "npm install" (or "npm run build") in the switchboard folder first.\n');
  process.exit(1);
}
// V8's code cache for our modules on Node 22+ (src/cli/compile-cache.ts), before any of them loads.
await import(new URL('../dist/bundle/compile-cache.js', import.meta.url).href);
// The stdio shim starts with every client window: it skips the full command line (docs/daemon.md).
const fast = process.argv[2] === 'connect' && (await import(new URL('../dist/bundle/connect-main.js', import.meta.url).href)).connectMain;
if (!fast || !(await fast(process.argv.slice(3)))) await import(compiled.href);
