// @ts-check
// Runs a peer gateway's entry point in this process with a config folder of its own:
//   node stdio-peer-launch.mjs --own-config-under PARENT ENTRY [ARGS...]
// copies the file named by `--config FILE` in ARGS into a fresh folder under PARENT and runs ENTRY
// as `node ENTRY ARGS...` with `--config` naming that copy. The 1mcp agent claims the folder of its
// config file for one instance (a second one there exits), and a benchmark opens several stdio
// sessions at once, one process each. Running the entry in-process (not as a child) keeps the
// process the client spawned the gateway itself, for its CPU and memory.
import { copyFileSync, mkdtempSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [flag, parent, entry, ...rest] = process.argv.slice(2);
const at = rest.indexOf('--config');
if (flag !== '--own-config-under' || !parent || !entry || at === -1 || !rest[at + 1]) {
  process.stderr.write('usage: node stdio-peer-launch.mjs --own-config-under PARENT ENTRY [ARGS...] (ARGS with --config FILE)\n');
  process.exit(2);
}
const folder = mkdtempSync(path.join(parent, 'instance-'));
const copy = path.join(folder, path.basename(rest[at + 1]));
copyFileSync(rest[at + 1], copy);
rest[at + 1] = copy;
process.argv = [process.argv[0], entry, ...rest];
await import(pathToFileURL(entry).href);
