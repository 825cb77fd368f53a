// @ts-check
// The two stdio peer gateways the benchmarks compare Switchboard's stdio face with: hypertool-mcp and
// the 1mcp agent. Neither is on the npm registry reachable here; both are built from source into a
// folder of their own (`--peers DIR` or $SWITCHBOARD_BENCH_PEERS; bench/README.md says how), never
// installed by this project. This module says how each is launched in front of a stdio server so
// that every harness runs them the same way:
//   - each gets a scratch HOME (and XDG folders), so nothing touches the user's own state;
//   - hypertool serves tools only from an equipped toolset: the scratch HOME holds one named
//     `bench` with the server's `echo` and `payload` tools, and its config needs `"type": "stdio"`;
//   - the 1mcp agent claims the folder of its config file for one instance, so each process gets a
//     copy of the file in a fresh folder (stdio-peer-launch.mjs), and several sessions at once (one
//     process each) can run.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const LAUNCH = path.join(path.dirname(fileURLToPath(import.meta.url)), 'stdio-peer-launch.mjs');

/**
 * @typedef {object} StdioPeer
 * @property {string} id
 * @property {string} name
 * @property {string} entry the built entry point, relative to DIR
 * @property {(dir: string) => string | undefined} version
 * @property {(dir: string) => string | undefined} unavailable why it cannot run from DIR, if it cannot
 * @property {(dir: string, scratch: string, server: {command: string, args: string[]}) => {args: string[], env: Record<string, string>}} launch
 *   node arguments and environment that start it in front of `server` (the caller adds its own process.env and guards)
 */

/** The folder of built peers: the option, else $SWITCHBOARD_BENCH_PEERS. @param {string | undefined} option */
export function stdioPeersDir(option) {
  const dir = option ?? process.env.SWITCHBOARD_BENCH_PEERS;
  return dir ? path.resolve(dir) : undefined;
}

/** A scratch HOME for a peer, made under `scratch`. @param {string} scratch @param {string} id */
function scratchHome(scratch, id) {
  const home = path.join(scratch, `${id}-home`);
  mkdirSync(home, { recursive: true });
  return { HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), XDG_DATA_HOME: path.join(home, '.local/share'), XDG_STATE_HOME: path.join(home, '.local/state'), XDG_CACHE_HOME: path.join(home, '.cache') };
}

/** @param {string} dir @param {string} folder */
function packageVersion(dir, folder) {
  try {
    return /** @type {{version?: string}} */ (JSON.parse(readFileSync(path.join(dir, folder, 'package.json'), 'utf8'))).version;
  } catch {
    return undefined;
  }
}

/** @param {string} entry @param {string} name */
const missing = (entry, name) => (/** @type {string} */ dir) =>
  existsSync(path.join(dir, entry)) ? undefined : `${name} is not built in ${dir} (${entry} missing): build the peers into that folder (bench/README.md)`;

/** @type {StdioPeer} */
const HYPERTOOL = {
  id: 'hypertool',
  name: 'hypertool-mcp',
  entry: 'hypertool/dist/bin.js',
  version: (dir) => packageVersion(dir, 'hypertool'),
  unavailable: missing('hypertool/dist/bin.js', 'hypertool-mcp'),
  launch(dir, scratch, server) {
    const env = scratchHome(scratch, 'hypertool');
    const state = path.join(env.HOME, '.toolprint/hypertool-mcp');
    mkdirSync(state, { recursive: true });
    const tools = ['echo', 'payload'].map((tool) => ({ namespacedName: `echo.${tool}` }));
    writeFileSync(path.join(state, 'config.json'), JSON.stringify({ toolsets: { bench: { name: 'bench', version: '1.0.0', createdAt: '2026-01-01T00:00:00.000Z', tools } }, version: '1.0.0', lastEquippedToolset: 'bench' }));
    const config = path.join(scratch, 'hypertool.mcp.json');
    writeFileSync(config, JSON.stringify({ mcpServers: { echo: { type: 'stdio', ...server } } }));
    return { args: [path.join(dir, this.entry), 'mcp', 'run', '--mcp-config', config, '--equip-toolset', 'bench'], env };
  },
};

/** @type {StdioPeer} */
const ONE_MCP = {
  id: '1mcp',
  name: '1mcp agent',
  entry: '1mcp/build/index.js',
  version: (dir) => packageVersion(dir, '1mcp'),
  unavailable: missing('1mcp/build/index.js', 'the 1mcp agent'),
  launch(dir, scratch, server) {
    const env = scratchHome(scratch, '1mcp');
    const config = path.join(scratch, '1mcp.mcp.json');
    writeFileSync(config, JSON.stringify({ mcpServers: { echo: server } }));
    const instances = path.join(scratch, '1mcp-instances');
    mkdirSync(instances, { recursive: true });
    return { args: [LAUNCH, '--own-config-under', instances, path.join(dir, this.entry), 'serve', '--transport', 'stdio', '--config', config], env };
  },
};

export const STDIO_PEERS = [HYPERTOOL, ONE_MCP];
