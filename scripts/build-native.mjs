// Builds the call journal's native addon (native/journal-mmap) with node-gyp, at install time or by
// `npm run build:native`. The addon is optional: when there is no C compiler, no make, no local Node
// headers or this is not Linux, the build is skipped at once with one line saying so (no download,
// no wait), the install goes on, and the gateway records calls with one write(2) each instead of a
// copy into a memory-mapped file. Why it is kept: docs/decisions/0005-journal-addon.md.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const addon = path.join(root, 'native', 'journal-mmap');
const say = (line) => process.stderr.write(`switchboard: ${line}\n`);

if (process.platform !== 'linux') process.exit(0); // the addon maps files on Linux only; nothing to build
if (process.env.SWITCHBOARD_SKIP_NATIVE) {
  say('SWITCHBOARD_SKIP_NATIVE is set: the call journal addon is not built (calls are recorded with write(2))');
  process.exit(0);
}
if (!existsSync(path.join(addon, 'binding.gyp'))) process.exit(0); // an install without the sources

// Never a download, never a wait on a machine without a toolchain: build only when a C compiler is
// on the PATH and Node's headers are local (next to node, or npm_config_nodedir); else skip at once.
const prefix = path.dirname(path.dirname(process.execPath));
const onPath = (name) => (process.env.PATH ?? '').split(path.delimiter).some((dir) => dir && existsSync(path.join(dir, name)));
const compiler = process.env.CC || ['cc', 'gcc', 'clang'].find(onPath);
const headers = process.env.npm_config_nodedir || existsSync(path.join(prefix, 'include', 'node', 'node_api.h'));
if (!compiler || !onPath('make') || !headers) {
  const missing = [!compiler && 'a C compiler (cc, gcc or clang)', !onPath('make') && 'make', !headers && "Node's headers"].filter(Boolean).join(', ');
  say(`the optional call journal addon is not built (missing here: ${missing}); calls are recorded with write(2). See docs/decisions/0005-journal-addon.md.`);
  process.exit(0);
}

// npm names its own node-gyp for lifecycle scripts; otherwise use one on the PATH. Node's own
// headers, when installed next to it, spare node-gyp a download (which hangs or fails offline).
const npmsOwn = path.join(prefix, 'lib', 'node_modules', 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js');
const bundled = [process.env.npm_config_node_gyp, npmsOwn].find((file) => file && existsSync(file));
const [command, args] = bundled ? [process.execPath, [bundled, 'rebuild']] : ['node-gyp', ['rebuild']];
if (!process.env.npm_config_nodedir && existsSync(path.join(prefix, 'include', 'node', 'node_api.h'))) args.push(`--nodedir=${prefix}`);
const result = spawnSync(command, args, { cwd: addon, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 180_000 });
if (result.status === 0) process.exit(0);
const output = `${result.stdout ?? ''}${result.stderr ?? ''}`.trim().split('\n').slice(-12).join('\n');
say(`the call journal's native addon could not be built (${result.error ? result.error.message : `node-gyp exited ${result.status}`}).`);
say('Switchboard works without it: each recorded call is appended with one write(2) instead of a copy into a memory-mapped file.');
if (output) process.stderr.write(`${output}\n`);
