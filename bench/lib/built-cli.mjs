// @ts-check
// Owns where a checkout's built command line is, and building it: the bundle (dist/bundle/main.js,
// what users run) when there is one, else tsc's dist/cli/main.js (a checkout from before the bundle,
// as an A/B baseline). Building runs the package's own `build:cli` script (tsc, then the bundle).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

/** The built CLI entry of the checkout at `dir`. @param {string} dir */
export function builtMain(dir) {
  const bundled = path.resolve(dir, 'dist/bundle/main.js');
  return existsSync(bundled) ? bundled : path.resolve(dir, 'dist/cli/main.js');
}

/** Runs `npm run build:cli` in `dir`; returns whether it succeeded. @param {string} dir */
export function buildCli(dir) {
  const run = spawnSync('npm', ['run', '--silent', 'build:cli'], { cwd: dir, stdio: ['ignore', 2, 2], timeout: 300_000, shell: process.platform === 'win32' });
  return run.status === 0;
}
