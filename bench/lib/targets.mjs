// @ts-check
// What the harness measures: each target knows how to start (an HTTP server the harness spawns, or
// nothing for stdio, where each client session spawns its own process), which endpoint clients use,
// which process trees count for its memory, and how to stop. Every target fronts the same echo server.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT_DIR, installedVersion } from './root-modules.mjs';
import { freePort, startServer } from './procs.mjs';
import { STDIO_PEERS, stdioPeersDir } from './stdio-peers.mjs';

export const BENCH_DIR = path.join(ROOT_DIR, 'bench');
export const ECHO_SERVER = path.join(BENCH_DIR, 'echo-server.mjs');
const PEERS_DIR = path.join(BENCH_DIR, 'node_modules');
const GUARD = path.join(BENCH_DIR, 'lib', 'loopback-guard.cjs');
const NODE = process.execPath;

/**
 * @typedef {import('./client.mjs').Endpoint} Endpoint
 * @typedef {{endpoint: Endpoint, roots: number[], startupMs: number | null, stop: () => Promise<void>, tail: () => string, refused?: () => number}} Deployment
 * @typedef {object} Target
 * @property {string} id
 * @property {string} label
 * @property {'stdio' | 'http' | 'sse'} face what the client speaks
 * @property {string} downstream how the target reaches the echo server ('-' for the echo server itself)
 * @property {'direct-stdio' | 'direct-http'} baseline
 * @property {'direct' | 'switchboard' | 'peer' | 'floor'} group 'floor': a reference, not a product (what a relay costs at least)
 * @property {boolean} [fullOnly] only in full runs
 * @property {string} [version]
 * @property {(ctx: Context) => string | undefined} [unavailable] why it cannot run here, if it cannot
 * @property {(ctx: Context) => Promise<Deployment>} start
 */

/**
 * @typedef {object} Context
 * @property {string} tmp a scratch folder owned by this run
 * @property {string} gatewayLogLevel
 * @property {string | undefined} gatewayMain the run's copy of dist/bundle/main.js (undefined: not built)
 * @property {string | undefined} stdioPeersDir where hypertool-mcp and the 1mcp agent were built (--peers, $SWITCHBOARD_BENCH_PEERS)
 */

/** @param {Context} ctx */
const noGateway = (ctx) => (ctx.gatewayMain ? undefined : 'dist/bundle/main.js is missing (the build failed?)');

/** @param {string} file @param {unknown} value */
function writeJson(file, value) {
  writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}

const ECHO_STDIO = { command: NODE, args: [ECHO_SERVER, '--stdio'] };

/** @param {Context} ctx */
function stdioDownstreamConfig(ctx) {
  const file = path.join(ctx.tmp, 'echo-stdio.mcp.json');
  if (!existsSync(file)) writeJson(file, { mcpServers: { echo: ECHO_STDIO } });
  return file;
}

/** The same, with call recording in the store turned off: the metrics cost is the difference. @param {Context} ctx */
function stdioDownstreamConfigNoRecording(ctx) {
  const file = path.join(ctx.tmp, 'echo-stdio-norecord.mcp.json');
  if (!existsSync(file)) writeJson(file, { mcpServers: { echo: ECHO_STDIO }, switchboard: { recordCalls: false } });
  return file;
}

/** @param {Context} ctx */
async function startEchoHttp(ctx) {
  const port = await freePort();
  const started = performance.now();
  const server = await startServer({ command: NODE, args: [ECHO_SERVER, '--http', '--port', String(port), '--exit-on-stdin-close'], cwd: ctx.tmp, port });
  return { server, port, startupMs: performance.now() - started, url: `http://127.0.0.1:${port}/mcp` };
}

/** @param {Context} ctx @param {string} level */
function gatewayArgs(ctx, level) {
  return [/** @type {string} */ (ctx.gatewayMain), 'serve', '--log-level', level, '--data-dir', path.join(ctx.tmp, 'switchboard-data')];
}

/** A stdio target: nothing to start; each session spawns `command args`. @param {Endpoint} endpoint @returns {Deployment} */
function stdioDeployment(endpoint) {
  return { endpoint, roots: [], startupMs: null, stop: async () => undefined, tail: () => '' };
}

/**
 * An HTTP server target on a fresh port.
 * @param {(port: number) => {command: string, args: string[], env?: NodeJS.ProcessEnv}} spawnSpec
 * @param {(port: number) => Endpoint} endpointOf
 * @param {Context} ctx
 * @returns {Promise<Deployment>}
 */
async function httpDeployment(spawnSpec, endpointOf, ctx) {
  const port = await freePort();
  const spec = spawnSpec(port);
  const started = performance.now();
  const server = await startServer({ ...spec, cwd: ctx.tmp, port });
  return { endpoint: endpointOf(port), roots: [server.pid], startupMs: performance.now() - started, stop: server.stop, tail: server.stderrTail, refused: server.refusedConnections };
}

/** Environment for a peer: the loopback guard preloaded, nothing else changed. @param {NodeJS.ProcessEnv} [extra] */
function peerEnv(extra = {}) {
  const preload = `--require ${JSON.stringify(GUARD)}`;
  return { ...process.env, NODE_OPTIONS: [process.env.NODE_OPTIONS, preload].filter(Boolean).join(' '), ...extra };
}

/** @param {string} name @param {string} entry relative to the package folder */
function peer(name, entry) {
  const file = path.join(PEERS_DIR, name, entry);
  return {
    file,
    version: installedVersion(name, new URL(`file://${BENCH_DIR}/`)),
    /** @returns {string | undefined} */
    unavailable: () => (existsSync(file) ? undefined : `not installed (${path.relative(ROOT_DIR, file)} missing; run npm install --prefix bench)`),
  };
}

const mcpHub = peer('mcp-hub', 'dist/cli.js');
const supergateway = peer('supergateway', 'dist/index.js');
const mcpProxy = peer('mcp-proxy', 'dist/bin/mcp-proxy.mjs');

/** @param {string} s */
const shellQuote = (s) => `'${s.replace(/'/g, `'\\''`)}'`;

/** @type {Target[]} */
export const TARGETS = [
  {
    id: 'direct-stdio',
    label: 'direct stdio',
    face: 'stdio',
    downstream: '-',
    baseline: 'direct-stdio',
    group: 'direct',
    start: async () => stdioDeployment({ kind: 'stdio', ...ECHO_STDIO }),
  },
  {
    id: 'direct-http',
    label: 'direct HTTP',
    face: 'http',
    downstream: '-',
    baseline: 'direct-http',
    group: 'direct',
    start: async (ctx) => {
      const echo = await startEchoHttp(ctx);
      return { endpoint: { kind: 'http', url: echo.url }, roots: [echo.server.pid], startupMs: echo.startupMs, stop: echo.server.stop, tail: echo.server.stderrTail };
    },
  },
  {
    id: 'switchboard-stdio',
    label: 'Switchboard stdio',
    face: 'stdio',
    downstream: 'stdio',
    baseline: 'direct-stdio',
    group: 'switchboard',
    unavailable: noGateway,
    start: async (ctx) =>
      stdioDeployment({ kind: 'stdio', command: NODE, args: [...gatewayArgs(ctx, ctx.gatewayLogLevel), '--stdio', '--config', stdioDownstreamConfig(ctx)] }),
  },
  {
    // The per-call "forwarded" line the default level wrote until ADR 0004 (now at debug): the cost it had.
    id: 'switchboard-stdio-logdebug',
    label: 'Switchboard stdio, log level debug (a line per call)',
    face: 'stdio',
    downstream: 'stdio',
    baseline: 'direct-stdio',
    group: 'switchboard',
    fullOnly: true,
    unavailable: noGateway,
    start: async (ctx) => stdioDeployment({ kind: 'stdio', command: NODE, args: [...gatewayArgs(ctx, 'debug'), '--stdio', '--config', stdioDownstreamConfig(ctx)] }),
  },
  {
    id: 'switchboard-stdio-logwarn',
    label: 'Switchboard stdio, log level warn',
    face: 'stdio',
    downstream: 'stdio',
    baseline: 'direct-stdio',
    group: 'switchboard',
    fullOnly: true,
    unavailable: noGateway,
    start: async (ctx) => stdioDeployment({ kind: 'stdio', command: NODE, args: [...gatewayArgs(ctx, 'warn'), '--stdio', '--config', stdioDownstreamConfig(ctx)] }),
  },
  {
    // The call journal without its native addon (one write(2) per call instead of a copy into a mapped file): ADR 0005.
    id: 'switchboard-stdio-journal-write',
    label: 'Switchboard stdio, journal with write(2) (no addon)',
    face: 'stdio',
    downstream: 'stdio',
    baseline: 'direct-stdio',
    group: 'switchboard',
    fullOnly: true,
    unavailable: noGateway,
    start: async (ctx) =>
      stdioDeployment({ kind: 'stdio', command: NODE, args: [...gatewayArgs(ctx, ctx.gatewayLogLevel), '--stdio', '--config', stdioDownstreamConfig(ctx)], env: { SWITCHBOARD_CALL_JOURNAL: 'write' } }),
  },
  {
    id: 'switchboard-stdio-norecord',
    label: 'Switchboard stdio, call recording off',
    face: 'stdio',
    downstream: 'stdio',
    baseline: 'direct-stdio',
    group: 'switchboard',
    unavailable: noGateway,
    start: async (ctx) =>
      stdioDeployment({ kind: 'stdio', command: NODE, args: [...gatewayArgs(ctx, ctx.gatewayLogLevel), '--stdio', '--config', stdioDownstreamConfigNoRecording(ctx)] }),
  },
  {
    id: 'switchboard-http',
    label: 'Switchboard HTTP',
    face: 'http',
    downstream: 'stdio',
    baseline: 'direct-http',
    group: 'switchboard',
    unavailable: noGateway,
    start: (ctx) =>
      httpDeployment(
        (port) => ({ command: NODE, args: [...gatewayArgs(ctx, ctx.gatewayLogLevel), '--http', '--host', '127.0.0.1', '--port', String(port), '--config', stdioDownstreamConfig(ctx)] }),
        (port) => ({ kind: 'http', url: `http://127.0.0.1:${port}/mcp` }),
        ctx,
      ),
  },
  {
    id: 'switchboard-http-http',
    label: 'Switchboard HTTP, HTTP downstream',
    face: 'http',
    downstream: 'http',
    baseline: 'direct-http',
    group: 'switchboard',
    unavailable: noGateway,
    start: async (ctx) => {
      const echo = await startEchoHttp(ctx);
      try {
        const config = path.join(ctx.tmp, `echo-http-${echo.port}.mcp.json`);
        writeJson(config, { mcpServers: { echo: { type: 'http', url: echo.url } } });
        const gateway = await httpDeployment(
          (port) => ({ command: NODE, args: [...gatewayArgs(ctx, ctx.gatewayLogLevel), '--http', '--host', '127.0.0.1', '--port', String(port), '--config', config] }),
          (port) => ({ kind: 'http', url: `http://127.0.0.1:${port}/mcp` }),
          ctx,
        );
        return {
          ...gateway,
          roots: [...gateway.roots, echo.server.pid],
          stop: async () => {
            await gateway.stop();
            await echo.server.stop();
          },
        };
      } catch (error) {
        await echo.server.stop();
        throw error;
      }
    },
  },
  {
    id: 'mcp-hub',
    label: `mcp-hub ${mcpHub.version ?? ''}`.trim(),
    face: 'sse',
    downstream: 'stdio',
    baseline: 'direct-http',
    group: 'peer',
    version: mcpHub.version,
    unavailable: mcpHub.unavailable,
    start: (ctx) => {
      // mcp-hub refreshes a marketplace catalog from the internet at start unless its cache is fresh,
      // and falls back to curl when fetch fails. Give it a private home with a fresh (empty) cache and
      // a PATH without curl; the loopback guard stops anything else.
      const home = path.join(ctx.tmp, 'mcp-hub-home');
      const dataHome = path.join(home, '.local', 'share');
      const cacheDir = path.join(dataHome, 'mcp-hub', 'cache');
      const emptyBin = path.join(ctx.tmp, 'empty-bin');
      mkdirSync(cacheDir, { recursive: true });
      mkdirSync(emptyBin, { recursive: true });
      writeJson(path.join(cacheDir, 'registry.json'), {
        registry: { version: 'bench', generatedAt: Date.now(), totalServers: 1, servers: [{ id: 'none', name: 'none' }] },
        lastFetchedAt: Date.now(),
        serverDocumentation: {},
      });
      const config = path.join(ctx.tmp, 'mcp-hub.json');
      writeJson(config, { mcpServers: { echo: ECHO_STDIO } });
      const env = peerEnv({
        HOME: home,
        XDG_DATA_HOME: dataHome,
        XDG_STATE_HOME: path.join(home, '.local', 'state'),
        XDG_CONFIG_HOME: path.join(home, '.config'),
        PATH: emptyBin,
      });
      return httpDeployment(
        (port) => ({ command: NODE, args: [mcpHub.file, '--port', String(port), '--config', config], env }),
        (port) => ({ kind: 'sse', url: `http://127.0.0.1:${port}/mcp` }),
        ctx,
      );
    },
  },
  {
    id: 'supergateway-stateless',
    label: `supergateway ${supergateway.version ?? ''} stateless`.replace('  ', ' '),
    face: 'http',
    downstream: 'stdio',
    baseline: 'direct-http',
    group: 'peer',
    version: supergateway.version,
    unavailable: supergateway.unavailable,
    start: (ctx) =>
      httpDeployment(
        (port) => ({
          command: NODE,
          args: [supergateway.file, '--stdio', `${shellQuote(NODE)} ${shellQuote(ECHO_SERVER)} --stdio`, '--outputTransport', 'streamableHttp', '--port', String(port), '--logLevel', 'none'],
          env: peerEnv(),
        }),
        (port) => ({ kind: 'http', url: `http://127.0.0.1:${port}/mcp` }),
        ctx,
      ),
  },
  {
    id: 'supergateway-stateful',
    label: `supergateway ${supergateway.version ?? ''} --stateful`.replace('  ', ' '),
    face: 'http',
    downstream: 'stdio',
    baseline: 'direct-http',
    group: 'peer',
    version: supergateway.version,
    unavailable: supergateway.unavailable,
    start: (ctx) =>
      httpDeployment(
        (port) => ({
          command: NODE,
          args: [supergateway.file, '--stdio', `${shellQuote(NODE)} ${shellQuote(ECHO_SERVER)} --stdio`, '--outputTransport', 'streamableHttp', '--stateful', '--port', String(port), '--logLevel', 'none'],
          env: peerEnv(),
        }),
        (port) => ({ kind: 'http', url: `http://127.0.0.1:${port}/mcp` }),
        ctx,
      ),
  },
  {
    id: 'mcp-proxy',
    label: `mcp-proxy ${mcpProxy.version ?? ''}`.trim(),
    face: 'http',
    downstream: 'stdio',
    baseline: 'direct-http',
    group: 'peer',
    version: mcpProxy.version,
    unavailable: mcpProxy.unavailable,
    start: (ctx) =>
      httpDeployment(
        (port) => ({ command: NODE, args: [mcpProxy.file, '--host', '127.0.0.1', '--port', String(port), '--', NODE, ECHO_SERVER, '--stdio'], env: peerEnv() }),
        (port) => ({ kind: 'http', url: `http://127.0.0.1:${port}/mcp` }),
        ctx,
      ),
  },
  {
    // The floor of any stdio gateway on this machine, measured in the same run as the gateway: a
    // process that parses each line, swaps the request id and writes it on (bench/relay-floor.mjs).
    // A stdio ratio read against this row separates the process hop from the gateway's own work.
    id: 'relay-floor-stdio',
    label: 'JSON relay floor (relay-floor.mjs --json)',
    face: 'stdio',
    downstream: 'stdio',
    baseline: 'direct-stdio',
    group: 'floor',
    start: async () => stdioDeployment({ kind: 'stdio', command: NODE, args: [path.join(BENCH_DIR, 'relay-floor.mjs'), '--json', '--', NODE, ECHO_SERVER, '--stdio'] }),
  },
  // The stdio peers (lib/stdio-peers.mjs): built from source, never installed by this project.
  ...STDIO_PEERS.map((peer) => {
    const dir = stdioPeersDir(undefined);
    const version = dir ? peer.version(dir) : undefined;
    return /** @type {Target} */ ({
      id: `${peer.id}-stdio`,
      label: `${peer.name} ${version ?? ''}`.trim(),
      face: 'stdio',
      downstream: 'stdio',
      baseline: 'direct-stdio',
      group: 'peer',
      version,
      unavailable: (ctx) => (ctx.stdioPeersDir ? peer.unavailable(ctx.stdioPeersDir) : 'not built here: pass --peers DIR (or set SWITCHBOARD_BENCH_PEERS) with the peers built from source into DIR (bench/README.md)'),
      start: async (ctx) => {
        const launched = peer.launch(/** @type {string} */ (ctx.stdioPeersDir), ctx.tmp, ECHO_STDIO);
        const preload = `--require ${JSON.stringify(GUARD)}`;
        return stdioDeployment({ kind: 'stdio', command: NODE, args: launched.args, env: { ...launched.env, NODE_OPTIONS: [process.env.NODE_OPTIONS, preload].filter(Boolean).join(' ') } });
      },
    });
  }),
];
