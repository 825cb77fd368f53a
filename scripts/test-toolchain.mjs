// Installs the test-only toolchain into tools/node22 (its own package and lockfile): Node 22 and the
// two CLIs that need it, the MCP conformance suite and the Inspector. Run by `npm test` (vitest's
// global setup, test/setup/toolchain.ts) and never by a user's `npm install`: users need neither,
// and on Node 20 their packages only print engine warnings. Skipped when the installed tree already
// matches tools/node22/package-lock.json. Exits non-zero when the install fails.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const TOOLCHAIN_DIR = path.join(root, 'tools', 'node22');

/** Lockfile entries (path -> version) not installed at that version; empty when the tree is current. */
export function missingPackages(dir = TOOLCHAIN_DIR) {
  const wanted = JSON.parse(readFileSync(path.join(dir, 'package-lock.json'), 'utf8')).packages ?? {};
  const hidden = path.join(dir, 'node_modules', '.package-lock.json');
  const installed = existsSync(hidden) ? JSON.parse(readFileSync(hidden, 'utf8')).packages ?? {} : {};
  return Object.entries(wanted)
    .filter(([key, entry]) => key !== '' && !entry.optional && !entry.dev && installed[key]?.version !== entry.version)
    .map(([key, entry]) => `${key}@${entry.version}`);
}

/** Installs the toolchain when it is missing or stale; returns a message for the log, or throws. */
export function ensureToolchain({ log = (line) => process.stderr.write(`${line}\n`) } = {}) {
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    log('switchboard tests: Node 22 for the conformance and Inspector tests installs automatically only on Linux x64; those tests will fail here.');
    return;
  }
  const missing = missingPackages();
  if (missing.length === 0) return;
  log(`switchboard tests: installing the test toolchain into tools/node22 (${missing.length} package(s) missing or stale)...`);
  // The machine's npm (the one running this script, else the one on PATH), quietly: the tools
  // declare Node >= 22 and run on tools/node22's own Node, so npm's engine warnings do not apply.
  const npmCli = process.env.npm_execpath;
  const command = npmCli && npmCli.endsWith('.js') ? process.execPath : 'npm';
  const args = [...(command === process.execPath ? [npmCli] : []), 'ci', '--prefix', TOOLCHAIN_DIR, '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'];
  const result = spawnSync(command, args, { stdio: ['ignore', 'inherit', 'inherit'], timeout: 600_000 });
  if (result.status !== 0) {
    throw new Error(`could not install the test toolchain into ${TOOLCHAIN_DIR} (npm ci exited ${result.status ?? result.signal}); the conformance and Inspector tests need it`);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    ensureToolchain();
  } catch (error) {
    process.stderr.write(`switchboard: ${error.message}\n`);
    process.exit(1);
  }
}
