// The conformance `server` suite (active scenarios) against (a) our fixture alone, (b) the gateway
// fronting it at /servers/{key}/mcp: same per-check results; and server-everything directly and
// through the gateway: the gateway adds no failure.
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  formatReport,
  newFailures,
  runConformanceServerSuite,
  startFixtureHttp,
  stopProcess,
  type ConformanceReport,
  type FixtureHttpProcess,
} from '../helpers/conformance.js';
import { fixtureServer, freePort, npmServer, startHttpGateway, waitFor, writeConfig, REPO, type RunningGateway } from '../helpers/gateway.js';

function verdicts(report: ConformanceReport): Record<string, string> {
  return Object.fromEntries(report.checks.map((c) => [`${c.scenario}/${c.check}`, c.status]));
}

describe('conformance server suite', () => {
  let fixture: FixtureHttpProcess;
  let gateway: RunningGateway;

  beforeAll(async () => {
    fixture = await startFixtureHttp();
    const config = await writeConfig({
      fixture: fixtureServer('conformance-server.ts', ['--stdio']),
      everything: npmServer('everything'),
    });
    gateway = await startHttpGateway(config);
  });

  afterAll(async () => {
    await gateway?.close();
    await fixture?.close();
  });

  // Generous timeouts: every scenario's client declares sampling/elicitation/roots, so each gets its own
  // downstream process through the gateway (isolation), started per session.
  it('passes every check against the fixture alone, and exactly the same checks through the gateway', { timeout: 300_000 }, async () => {
    const direct = await runConformanceServerSuite(`${fixture.url}`);
    expect(direct.failures, formatReport(direct)).toBe(0);
    expect(direct.checks.length).toBeGreaterThan(30);

    const viaGateway = await runConformanceServerSuite(`${gateway.url}/servers/fixture/mcp`);
    expect(verdicts(viaGateway), formatReport(viaGateway)).toEqual(verdicts(direct));
    const viaShortPath = await runConformanceServerSuite(`${gateway.url}/s/fixture/mcp`);
    expect(verdicts(viaShortPath), formatReport(viaShortPath)).toEqual(verdicts(direct));
  });

  it('adds no failure to server-everything', { timeout: 300_000 }, async () => {
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
      const direct = await runConformanceServerSuite(`http://127.0.0.1:${port}/mcp`);
      const viaGateway = await runConformanceServerSuite(`${gateway.url}/servers/everything/mcp`);
      const added = newFailures(direct, viaGateway);
      expect(added, `${formatReport(direct)}\n---\n${formatReport(viaGateway)}`).toEqual([]);
    } finally {
      await stopProcess(everything);
    }
  });
});
