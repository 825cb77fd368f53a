// Test helpers: write a real config file, run the real gateway CLI as a child process (stdio or
// HTTP face), and connect a real SDK client to it. Every process started here is stopped by PID.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, writeFile, mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { ClientCapabilities } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { descendantsOf } from '../../src/servers/process-tree.js';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The CLI as users run it: the bundle bin/switchboard.js loads (scripts/bundle.mjs). */
export const CLI = path.join(REPO, 'dist/bundle/main.js');
export const TSX_IMPORT = ['--import', 'tsx'];

export function npmServer(pkg: 'everything' | 'filesystem' | 'memory', args: string[] = [], env: Record<string, string> = {}) {
  const script = path.join(REPO, `node_modules/@modelcontextprotocol/server-${pkg}/dist/index.js`);
  return { command: process.execPath, args: [script, ...(pkg === 'everything' ? ['stdio'] : []), ...args], env };
}

/** A fixture server written in TypeScript under test/fixtures, run through tsx. */
export function fixtureServer(file: string, args: string[] = [], env: Record<string, string> = {}) {
  return { command: process.execPath, args: [...TSX_IMPORT, path.join(REPO, 'test/fixtures', file), ...args], env, cwd: REPO };
}

export async function tempDir(prefix = 'switchboard-test-'): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), prefix));
}

/**
 * listTimeoutMs in test configs unless a test sets its own: a first listing waits for servers that
 * start slowly on a loaded CI machine, so tests about other things see every server at once. The
 * bound itself (default 3 s) is tested with its own value in test/gateway/first-listing.test.ts.
 */
export const TEST_LIST_TIMEOUT_MS = 60_000;

export async function writeConfig(servers: Record<string, unknown>, switchboard?: Record<string, unknown>, dir?: string): Promise<string> {
  const folder = dir ?? (await tempDir());
  await mkdir(folder, { recursive: true });
  const file = path.join(folder, '.mcp.json');
  await writeFile(file, JSON.stringify({ mcpServers: servers, switchboard: { listTimeoutMs: TEST_LIST_TIMEOUT_MS, ...switchboard } }, null, 2));
  return file;
}

/** The demo trio against a scratch folder, with the memory file inside it. */
export async function demoServers(): Promise<{ servers: Record<string, unknown>; scratch: string }> {
  const scratch = await tempDir('switchboard-scratch-');
  await writeFile(path.join(scratch, 'hello.txt'), 'hello from the scratch folder\n');
  return {
    scratch,
    servers: {
      everything: npmServer('everything'),
      filesystem: npmServer('filesystem', [scratch]),
      memory: npmServer('memory', [], { MEMORY_FILE_PATH: path.join(scratch, 'memory.jsonl') }),
    },
  };
}

export interface StderrLog {
  text(): string;
  /** JSON log lines the gateway wrote (pino), parsed. */
  records(): Array<Record<string, unknown>>;
}

function collect(stream: NodeJS.ReadableStream | null | undefined): StderrLog {
  let text = '';
  stream?.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return {
    text: () => text,
    records: () =>
      text.split('\n').flatMap((line) => {
        if (!line.startsWith('{')) return [];
        try {
          return [JSON.parse(line) as Record<string, unknown>];
        } catch {
          return [];
        }
      }),
  };
}

export async function waitFor<T>(probe: () => T | undefined | false | Promise<T | undefined | false>, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Stops a child we started: close stdin, SIGTERM, then SIGKILL after a grace period. */
export async function stopChild(child: ChildProcess, graceMs = 5000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.stdin?.end();
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

export interface RunningGateway {
  url: string;
  child: ChildProcess;
  log: StderrLog;
  close(): Promise<void>;
}

/** The data dir tests use: next to the config file, so each test's store starts empty and stays out of $HOME. */
export function dataDirFor(config: string): string[] {
  return ['--data-dir', path.join(path.dirname(config), 'data')];
}

/** `nodeArgs` go to node itself, before the CLI (e.g. `--expose-gc`). */
export async function startHttpGateway(config: string, extraArgs: string[] = [], env: Record<string, string> = {}, nodeArgs: string[] = []): Promise<RunningGateway> {
  const child = spawn(process.execPath, [...nodeArgs, CLI, 'serve', '--http', '--port', '0', '--config', config, ...dataDirFor(config), '--log-level', 'debug', ...extraArgs], {
    cwd: REPO,
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1', ...env },
  });
  const log = collect(child.stderr);
  // The "listening" log line, or (at log levels above info) the banner printed for people.
  let url: string;
  try {
    url = await waitFor(() => {
      if (child.exitCode !== null) throw new Error(`gateway exited with ${child.exitCode}: ${log.text()}`);
      const record = log.records().find((r) => r.msg === 'listening');
      if (record) return String(record.url).replace(/\/mcp$/, '');
      return /serving .* at (http:\/\/\S+)\/mcp/.exec(log.text())?.[1];
    }, 'the gateway to listen');
  } catch (error) {
    await stopChild(child); // never leave a gateway behind when a test gives up on it
    throw error;
  }
  return { url, child, log, close: () => stopChild(child) };
}

export interface ConnectedClient {
  client: Client;
  log?: StderrLog;
  pid?: number | null;
  close(): Promise<void>;
}

export function newClient(capabilities: ClientCapabilities = {}): Client {
  return new Client({ name: 'switchboard-test', version: '1.0.0' }, { capabilities });
}

export async function connectStdio(config: string, client: Client = newClient(), extraArgs: string[] = []): Promise<ConnectedClient> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'serve', '--stdio', '--config', config, ...dataDirFor(config), '--log-level', 'debug', ...extraArgs],
    cwd: REPO,
    env: { ...(process.env as Record<string, string>), NO_COLOR: '1' },
    stderr: 'pipe',
  });
  const log = collect(transport.stderr as unknown as NodeJS.ReadableStream);
  await client.connect(transport);
  return { client, log, pid: transport.pid, close: () => client.close() };
}

export async function connectHttp(url: string, client: Client = newClient(), endpoint = '/mcp'): Promise<ConnectedClient> {
  const transport = new StreamableHTTPClientTransport(new URL(`${url}${endpoint}`));
  await client.connect(transport);
  return {
    client,
    close: async () => {
      await transport.terminateSession().catch(() => undefined);
      await client.close();
    },
  };
}

/** Every descendant PID of a process (from /proc), to check that no child survives. */
export async function descendants(pid: number): Promise<number[]> {
  return descendantsOf(pid);
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const HAS_PROC = existsSync('/proc/self/stat');

/**
 * Alive and not a zombie. An orphan that died is a zombie until PID 1 reaps it, which can take a
 * while in a container, and a zombie still answers signal 0; /proc says it is dead. (For our own
 * children isAlive is the right test: a child stays a zombie until our side has seen it exit.)
 */
export function isRunning(pid: number): boolean {
  if (!isAlive(pid)) return false;
  if (!HAS_PROC) return true;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat[stat.lastIndexOf(')') + 2] !== 'Z';
  } catch {
    return false; // gone since the signal
  }
}


/** A TCP port that was free a moment ago on 127.0.0.1 (for servers that cannot bind port 0 themselves). */
export async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Runs the built CLI with extra environment; resolves with its exit code and output (never rejects). */
export function spawnCli(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: REPO, env: { ...process.env, NO_COLOR: '1', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (c: Buffer) => (stdout += c));
    child.stderr!.on('data', (c: Buffer) => (stderr += c));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}
