// Call metrics belong to the server they were recorded for, not to its key (issue 19 item 1): three
// configs share one data dir and all name a server "x": server-everything in A, server-memory in B,
// and server-memory again in C but from another folder (another identity with the same tools). Calls
// made with `switchboard call` are recorded (issue 19 item 7) and each config's `switchboard metrics`
// shows only its own x; a gateway on C does not put B's calls into its listed tools' metrics.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { connectStdio, npmServer, tempDir, writeConfig } from '../helpers/gateway.js';
import { runCli, runCliJson } from '../cli/run-cli.js';
import { serverIdentity } from '../../src/servers/identity.js';
import { loadConfig } from '../../src/config/index.js';
import { TOOL_METRICS_META_KEY } from '../../src/gateway/tool-metrics.js';
import type { ToolStats } from '../../src/store/index.js';

const ANY = z.any();

async function memoryProject(prefix: string): Promise<string> {
  const dir = await tempDir(prefix);
  const server = { ...npmServer('memory', [], { MEMORY_FILE_PATH: path.join(dir, 'm.jsonl') }), cwd: dir };
  return writeConfig({ x: server }, { includeMetrics: true }, dir);
}

async function identityOfX(config: string): Promise<string> {
  return serverIdentity((await loadConfig(config)).servers.find((s) => s.key === 'x')!);
}

/** The metrics of x that a gateway on `config` puts into its listed tools, by tool name. */
async function listedMetrics(config: string, dataDir: string): Promise<Record<string, unknown>> {
  const connected = await connectStdio(config, undefined, ['--data-dir', dataDir]);
  try {
    const { tools } = await connected.client.request({ method: 'tools/list', params: {} }, ANY);
    return Object.fromEntries((tools as Array<{ name: string; _meta?: Record<string, unknown> }>).map((t) => [t.name, t._meta?.[TOOL_METRICS_META_KEY]]));
  } finally {
    await connected.close();
  }
}

describe('call metrics per server identity', () => {
  it('shows each config the calls of its own "x" only, in switchboard metrics and in listed tools', async () => {
    const shared = path.join(await tempDir('switchboard-shared-metrics-'), 'data');
    const projectA = await writeConfig({ x: npmServer('everything') });
    const projectB = await memoryProject('switchboard-metrics-b-');
    const projectC = await memoryProject('switchboard-metrics-c-');
    expect(await identityOfX(projectB)).not.toBe(await identityOfX(projectC));

    const echo = await runCli(['call', 'x_echo', '{"message":"hi"}', '--config', projectA], shared);
    expect(echo.code, echo.stderr).toBe(0);
    const graph = await runCli(['call', 'x_read_graph', '{}', '--config', projectB], shared);
    expect(graph.code, graph.stderr).toBe(0);

    const metricsA = await runCliJson<ToolStats[]>(['metrics', '--json', '--config', projectA], shared);
    expect(metricsA).toEqual([expect.objectContaining({ server: 'x', identity: await identityOfX(projectA), tool: 'echo', calls: 1, successes: 1 })]);
    const metricsB = await runCliJson<ToolStats[]>(['metrics', '--json', '--config', projectB], shared);
    expect(metricsB).toEqual([expect.objectContaining({ server: 'x', identity: await identityOfX(projectB), tool: 'read_graph', calls: 1 })]);
    expect(await runCliJson<ToolStats[]>(['metrics', '--json', '--config', projectC], shared)).toEqual([]);
    const text = await runCli(['metrics', '--server', 'x', '--config', projectC], shared);
    expect(text.stdout).toContain(`No calls recorded for server "x", the servers of ${projectC}`);

    // The same tools, another server: C's gateway shows no metrics for x_read_graph, B's shows its call.
    expect((await listedMetrics(projectC, shared)).x_read_graph).toBeUndefined();
    expect((await listedMetrics(projectB, shared)).x_read_graph).toMatchObject({ calls: 1, success_rate: 1 });
  });
});
