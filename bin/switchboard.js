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
// `serve --stdio` starts the servers its session will need (src/cli/serve-prestart.ts) before the
// command line and the gateway load: imported by main.js too, it runs once, here, sooner. Not for
// the HTTP face and the daemon, which start nothing early. This quick look at the flags only orders
// the imports below; each module decides by src/cli/serve-face.ts (an option's value like
// `--log-file --http` reads as stdio there, and only the order differs here).
const servesStdio = process.argv[2] === 'serve' && !process.argv.includes('--http') && !process.argv.includes('--daemon');
// V8's code cache for our modules on Node 22.1+ (src/cli/compile-cache.ts, with the HTTP face's
// young-generation cap), before any of them loads. A stdio gateway on a Node without the cache loads
// that module with main.js (which imports it too), after its early start.
if (typeof module.enableCompileCache === 'function' || !servesStdio) await import(new URL('../dist/bundle/compile-cache.js', import.meta.url).href);
if (servesStdio) await import(new URL('../dist/bundle/serve-prestart.js', import.meta.url).href);
// The stdio shim starts with every client window: it skips the full command line (docs/daemon.md).
const fast = process.argv[2] === 'connect' && (await import(new URL('../dist/bundle/connect-main.js', import.meta.url).href)).connectMain;
if (!fast || !(await fast(process.argv.slice(3)))) await import(compiled.href);
