// The MCP conformance suite (0.2.x, pinned in tools/node22) run as each spec revision requires it
// (`--requirements 2026-07-28` and `--requirements 2025-11-25`, each at its own wire), against
// (a) our fixture alone, the reference: it passes every scored scenario of both revisions;
// (b) the gateway's per-server endpoint fronting that fixture: it passes the same, except the checks
//     named, with the reason, in test/conformance/baselines/per-server-<revision>.yaml, and adds no
//     failure to any check the fixture passes (not-scored scenarios included);
// (c) the gateway's aggregate /mcp: the same, except scenarios that call the fixture's tools and
//     prompts by their own names (the aggregate namespaces them), named in aggregate-<revision>.yaml.
// The CLI itself judges each run against its baseline (`--expected-failures`): any other failure of a
// scored scenario, or a baselined check that passes, makes it exit 1.
// And server-everything, directly and through the gateway: the gateway adds no failure.
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bundleFixture,
  formatReport,
  newFailures,
  runConformanceServerSuite,
  startFixtureHttp,
  stopProcess,
  type ConformanceReport,
  type FixtureHttpProcess,
} from '../helpers/conformance.js';
import { freePort, tempDir, npmServer, startHttpGateway, waitFor, writeConfig, REPO, type RunningGateway } from '../helpers/gateway.js';

const REVISIONS = ['2026-07-28', '2025-11-25'] as const;
const BASELINES = path.join(REPO, 'test', 'conformance', 'baselines');
/** A run through the gateway starts a downstream process per bridged call: minutes on a loaded machine. */
const RUN_TIMEOUT_MS = 420_000;

/**
 * Baselined checks that fail by a clock, not by a rule: the suite gives the gateway a deadline that a
 * downstream process start may or may not meet (on a quiet machine it can). Such an entry that passes
 * is not a stale baseline; any other stale entry, and any unexpected failure, still fails the test.
 */
const TIMING_DEPENDENT = new Set([
  // 600 ms for the first frame of a call that starts a downstream process of its own (per-server-2026-07-28.yaml).
  'server-stateless:sep-2575-http-server-no-independent-requests-on-stream',
]);

/** The CLI's verdict on a run with a baseline: exit 0, or only timing-dependent entries passed. */
function baselineHolds(report: ConformanceReport): boolean {
  if (report.exitCode === 0) return true;
  const listed = (heading: string) => {
    const at = report.raw.indexOf(heading);
    if (at < 0) return [];
    const lines = report.raw.slice(at).split('\n').slice(1);
    const entries: string[] = [];
    for (const line of lines) {
      const match = /^\s+[✓✗] (\S+)$/.exec(line);
      if (!match) break;
      entries.push(match[1]!);
    }
    return entries;
  };
  const unexpected = listed('Unexpected failures (not in baseline):');
  const stale = listed('Stale baseline entries');
  return unexpected.length === 0 && stale.length > 0 && stale.every((entry) => TIMING_DEPENDENT.has(entry));
}

/** newFailures' message for a check the reference passed and this run never reported. */
const MISSING = 'check passed in the baseline but is missing here';

function baseline(kind: 'per-server' | 'aggregate', revision: string): string {
  return path.join(BASELINES, `${kind}-${revision}.yaml`);
}

/** The entries of a baseline file: `scenario` or `scenario:check` (the CLI's own format). */
async function baselinedChecks(file: string): Promise<Set<string>> {
  const text = await readFile(file, 'utf8');
  return new Set([...text.matchAll(/^\s+-\s+([^\s#]+)/gm)].map((m) => m[1]!));
}

/** The CLI's verdict lines and our per-check report, for assertion messages. */
function explain(report: ConformanceReport): string {
  const verdict = report.raw.split('\n').filter((line) => /^(✗|Total:|Unexpected|Stale|Expected|\s+- )/.test(line.trim()) || /baseline/i.test(line));
  return `${formatReport(report)}\n--- CLI ---\n${verdict.join('\n')}`;
}

describe('conformance server suite, per spec revision', () => {
  let fixture: FixtureHttpProcess;
  let gateway: RunningGateway;
  const direct = new Map<string, ConformanceReport>();

  beforeAll(async () => {
    fixture = await startFixtureHttp();
    const bundled = await bundleFixture(await tempDir('switchboard-conformance-fixture-'));
    const config = await writeConfig({
      fixture: { command: process.execPath, args: [bundled, '--stdio'], cwd: REPO },
      everything: npmServer('everything'),
    });
    gateway = await startHttpGateway(config);
  }, 120_000);

  afterAll(async () => {
    await gateway?.close();
    await fixture?.close();
  });

  for (const revision of REVISIONS) {
    it(`${revision}: the fixture alone passes every scored scenario`, { timeout: 180_000 }, async () => {
      const report = await runConformanceServerSuite(fixture.url, { requirements: revision });
      direct.set(revision, report);
      expect(report.exitCode, explain(report)).toBe(0);
      expect(report.checks.length).toBeGreaterThan(60);
    });

    it(`${revision}: the per-server endpoint passes it too, but for its baseline, and adds no failure`, { timeout: RUN_TIMEOUT_MS + 10_000 }, async () => {
      const reference = direct.get(revision) ?? (await runConformanceServerSuite(fixture.url, { requirements: revision }));
      const report = await runConformanceServerSuite(`${gateway.url}/servers/fixture/mcp`, {
        requirements: revision,
        expectedFailures: baseline('per-server', revision),
        timeoutMs: RUN_TIMEOUT_MS,
      });
      expect(baselineHolds(report), explain(report)).toBe(true);
      // Not-scored scenarios included. A baselined check excuses itself, and the later checks of its
      // scenario that never ran because of it (as the CLI tolerates them); any other failure counts.
      const excused = await baselinedChecks(baseline('per-server', revision));
      const bailedScenarios = new Set([...excused].map((entry) => entry.split(':')[0]!));
      const added = newFailures(reference, report).filter(
        (c) => !excused.has(c.scenario) && !excused.has(`${c.scenario}:${c.check}`) && !(c.message === MISSING && bailedScenarios.has(c.scenario)),
      );
      expect(added, explain(report)).toEqual([]);
    });

    it(`${revision}: the aggregate /mcp passes every scenario that does not call a tool or prompt by the fixture's own name`, { timeout: RUN_TIMEOUT_MS + 10_000 }, async () => {
      const report = await runConformanceServerSuite(`${gateway.url}/mcp`, {
        requirements: revision,
        expectedFailures: baseline('aggregate', revision),
        timeoutMs: RUN_TIMEOUT_MS,
      });
      expect(baselineHolds(report), explain(report)).toBe(true);
    });
  }

  it('adds no failure to server-everything (2025-11-25 requirements)', { timeout: 300_000 }, async () => {
    const port = await freePort();
    const everything = spawn(process.execPath, [npmServer('everything').args[0]!, 'streamableHttp'], {
      cwd: REPO,
      env: { ...process.env, PORT: String(port) },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let output = '';
    everything.stdout?.on('data', (c: Buffer) => (output += c.toString()));
    everything.stderr?.on('data', (c: Buffer) => (output += c.toString()));
    try {
      await waitFor(async () => {
        try {
          await fetch(`http://127.0.0.1:${port}/mcp`, { method: 'GET' });
          return true;
        } catch {
          return false;
        }
      }, `server-everything on port ${port} (${output})`, 60_000);
      const alone = await runConformanceServerSuite(`http://127.0.0.1:${port}/mcp`, { requirements: '2025-11-25' });
      const viaGateway = await runConformanceServerSuite(`${gateway.url}/servers/everything/mcp`, { requirements: '2025-11-25', timeoutMs: 240_000 });
      const added = newFailures(alone, viaGateway);
      expect(added, `${formatReport(alone)}\n---\n${formatReport(viaGateway)}`).toEqual([]);
    } finally {
      await stopProcess(everything);
    }
  });
});
