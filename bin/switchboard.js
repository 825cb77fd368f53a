#!/usr/bin/env node
// Entry point of the `switchboard` command: runs the bundled CLI (dist/bundle/, built by `npm install` /
// `npm run build`: tsc, then scripts/bundle.mjs).
import { existsSync } from 'node:fs';
import module from 'node:module';
import { fileURLToPath } from 'node:url';

const compiled = new URL('../dist/bundle/main.js', import.meta.url);
if (!existsSync(fileURLToPath(compiled))) {
  process.stderr.write('switchboard: not built yet. Run "npm install" (or "npm run build") in the switchboard folder first.\n');
  process.exit(1);
}
// V8's code cache for our modules on Node 22.1+ (src/cli/compile-cache.ts), before any of them loads;
// a Node without it skips the module (~10 ms of loading).
if (typeof module.enableCompileCache === 'function') await import(new URL('../dist/bundle/compile-cache.js', import.meta.url).href);
// `serve` starts the servers its session will need (src/cli/serve-prestart.ts) before the command
// line and the gateway load: imported by main.js too, it runs once, here, ~50 ms sooner.
if (process.argv[2] === 'serve') await import(new URL('../dist/bundle/serve-prestart.js', import.meta.url).href);
// The stdio shim starts with every client window: it skips the full command line (docs/daemon.md).
const fast = process.argv[2] === 'connect' && (await import(new URL('../dist/bundle/connect-main.js', import.meta.url).href)).connectMain;
if (!fast || !(await fast(process.argv.slice(3)))) await import(compiled.href);
