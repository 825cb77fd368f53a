// `switchboard import`, `install` and `uninstall` on fixture configs of every supported client shape
// (issue 16 item 3), under a temporary HOME (never the real one): Claude Code's ~/.claude.json (user
// and per-project servers) and a project .mcp.json, Claude Desktop, Cursor (a url entry) and VS Code
// ("servers", an ${input:} entry). Then install writes a client's file to run the shim, keeps the
// rest of the file and a backup, and uninstall puts the servers back; the installed entry really
// starts a shim that serves the imported servers.
import { execFile } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI, REPO, npmServer, tempDir } from '../helpers/gateway.js';

const run = promisify(execFile);
const stops: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});

interface Home {
  home: string;
  project: string;
  config: string;
  dataDir: string;
}

async function cli(home: Home, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, ...args, '--config', home.config, '--data-dir', home.dataDir], { cwd: home.project, env: { ...process.env, HOME: home.home, NO_COLOR: '1' } });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

const json = async (file: string) => JSON.parse(await readFile(file, 'utf8')) as Record<string, any>;

async function fixtureHome(): Promise<Home> {
  const home = await tempDir('switchboard-home-');
  const project = path.join(home, 'work', 'app');
  await mkdir(project, { recursive: true });
  const memory = npmServer('memory');
  const write = async (file: string, value: unknown) => {
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, JSON.stringify(value, null, 2));
  };
  // Claude Code: user servers, a project's servers inside ~/.claude.json, and other state to keep.
  await write(path.join(home, '.claude.json'), {
    numStartups: 42,
    mcpServers: { memory, github: { type: 'http', url: 'http://127.0.0.1:9/github/mcp', headers: { Authorization: 'Bearer ${GITHUB_TOKEN}' } } },
    projects: { [project]: { allowedTools: [], mcpServers: { fs: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '.'] } } } },
  });
  await write(path.join(project, '.mcp.json'), { mcpServers: { 'project-memory': memory } });
  // Claude Desktop on Linux, the same memory server (already there once imported).
  await write(path.join(home, '.config', 'Claude', 'claude_desktop_config.json'), { mcpServers: { memory } });
  // Cursor: a url entry without a type, and a "memory" that is another server (renamed on import).
  await write(path.join(home, '.cursor', 'mcp.json'), { mcpServers: { docs: { url: 'http://127.0.0.1:9/docs/sse' }, memory: { command: 'node', args: ['other-memory.js'] } } });
  // VS Code: "servers", a stdio entry with a type, and one that needs a VS Code input.
  await write(path.join(home, '.config', 'Code', 'User', 'mcp.json'), {
    inputs: [{ id: 'key', type: 'promptString' }],
    servers: { time: { type: 'stdio', command: 'uvx', args: ['mcp-server-time'] }, secret: { type: 'stdio', command: 'x', env: { KEY: '${input:key}' } } },
  });
  return { home, project, config: path.join(home, 'switchboard', 'servers.mcp.json'), dataDir: path.join(home, 'sb-data') };
}

describe('switchboard import', () => {
  it('shows, then copies every client\'s servers into Switchboard\'s config, converting shapes and renaming clashes', async () => {
    const h = await fixtureHome();
    await mkdir(path.dirname(h.config), { recursive: true });
    const dry = await cli(h, ['import', '--dry-run', '--json']);
    expect(dry.code, dry.stderr).toBe(0);
    const { plan } = JSON.parse(dry.stdout) as { plan: Array<{ client: string; server: string; action: string; as?: string; reason?: string }> };
    const by = (client: string, server: string) => plan.find((p) => p.client === client && p.server === server);
    expect(by('claude-code', 'memory')).toMatchObject({ action: 'add', as: 'memory' });
    expect(by('claude-code', 'github')).toMatchObject({ action: 'add' });
    expect(by('claude-code', 'fs')).toMatchObject({ action: 'add' });
    expect(by('claude-code', 'project-memory')).toMatchObject({ action: 'exists', as: 'memory' });
    expect(by('claude-desktop', 'memory')).toMatchObject({ action: 'exists', as: 'memory' });
    expect(by('cursor', 'memory')).toMatchObject({ action: 'rename', as: 'memory-cursor' });
    expect(by('cursor', 'docs')).toMatchObject({ action: 'add' });
    expect(by('vscode', 'time')).toMatchObject({ action: 'add' });
    expect(by('vscode', 'secret')).toMatchObject({ action: 'skip', reason: expect.stringContaining('${input:key}') });
    expect(existsSync(h.config)).toBe(false); // a dry run writes nothing

    const real = await cli(h, ['import']);
    expect(real.code, real.stderr).toBe(0);
    expect(real.stdout).toMatch(/6 server\(s\) added/);
    const written = await json(h.config);
    expect(Object.keys(written.mcpServers).sort()).toEqual(['docs', 'fs', 'github', 'memory', 'memory-cursor', 'time']);
    expect(written.mcpServers.github).toEqual({ type: 'http', url: 'http://127.0.0.1:9/github/mcp', headers: { Authorization: 'Bearer ${GITHUB_TOKEN}' } }); // variables kept, never expanded
    expect(written.mcpServers.docs).toEqual({ type: 'http', url: 'http://127.0.0.1:9/docs/sse' });
    expect(written.mcpServers.time).toEqual({ command: 'uvx', args: ['mcp-server-time'] });
    // Importing again adds nothing.
    const again = await cli(h, ['import', '--json']);
    expect((JSON.parse(again.stdout) as { plan: Array<{ action: string }> }).plan.filter((p) => p.action === 'add' || p.action === 'rename')).toEqual([]);
    // A file named with --from, and a bad source.
    const extra = path.join(h.home, 'extra.json');
    await writeFile(extra, JSON.stringify({ mcpServers: { extra: { command: 'node', args: ['e.js'] } } }));
    expect((await cli(h, ['import', '--from', extra])).stdout).toMatch(/1 server\(s\) added/);
    const bad = await cli(h, ['import', '--from', 'notepad']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('claude-code, claude-desktop, cursor, vscode');
  });
});

describe('switchboard install / uninstall', () => {
  it('puts the shim in a client\'s file (keeping the rest and a backup), and uninstall gives the servers back', async () => {
    const h = await fixtureHome();
    await mkdir(path.dirname(h.config), { recursive: true });
    const claudeFile = path.join(h.home, '.claude.json');
    const before = await json(claudeFile);

    const dry = await cli(h, ['install', '--client', 'claude-code', '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(await json(claudeFile)).toEqual(before);

    const installed = await cli(h, ['install', '--client', 'claude-code']);
    expect(installed.code, installed.stderr).toBe(0);
    const after = await json(claudeFile);
    expect(Object.keys(after.mcpServers)).toEqual(['switchboard']);
    expect(after.mcpServers.switchboard.args).toEqual(['--max-semi-space-size=1', path.join(REPO, 'bin', 'switchboard.js'), 'connect', '--config', h.config, '--data-dir', h.dataDir]);
    expect(after.numStartups).toBe(42); // the rest of the client's file is kept
    expect(after.projects[h.project].mcpServers.fs).toBeDefined();
    expect(await json(`${claudeFile}.switchboard-backup`)).toEqual(before);
    expect(Object.keys((await json(h.config)).mcpServers).sort()).toEqual(['github', 'memory']); // the user servers moved over
    // Installing twice keeps the first backup (the client's own file).
    expect((await cli(h, ['install', '--client', 'claude-code'])).stdout).toContain('already uses the shim');
    expect(await json(`${claudeFile}.switchboard-backup`)).toEqual(before);

    // The installed entry really runs: a client started with it sees the imported server's tools.
    const shimClient = new Client({ name: 'installed', version: '1' }, { capabilities: {} });
    const entry = after.mcpServers.switchboard as { command: string; args: string[] };
    await shimClient.connect(new StdioClientTransport({ command: entry.command, args: entry.args, cwd: h.project, env: { ...(process.env as Record<string, string>), HOME: h.home, GITHUB_TOKEN: 'unused' }, stderr: 'pipe' }));
    stops.push(async () => {
      await shimClient.close().catch(() => undefined);
      await cli(h, ['daemon', 'stop']);
    });
    const names = (await shimClient.listTools()).tools.map((t) => t.name);
    expect(names).toContain('memory_read_graph');

    // VS Code gets its own shape.
    expect((await cli(h, ['install', '--client', 'vscode'])).code).toBe(0);
    const vscode = await json(path.join(h.home, '.config', 'Code', 'User', 'mcp.json'));
    expect(vscode.servers.switchboard).toMatchObject({ type: 'stdio', command: process.execPath });
    expect(vscode.inputs).toEqual([{ id: 'key', type: 'promptString' }]);

    const undone = await cli(h, ['uninstall', '--client', 'claude-code']);
    expect(undone.code, undone.stderr).toBe(0);
    const restored = await json(claudeFile);
    expect(restored.mcpServers).toEqual(before.mcpServers);
    expect(restored.numStartups).toBe(42);
    expect(existsSync(`${claudeFile}.switchboard-backup`)).toBe(false);
    const nothing = await cli(h, ['uninstall', '--client', 'claude-code']);
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toContain('nothing to undo');
    expect((await cli(h, ['install', '--client', 'emacs'])).code).toBe(2);
  });
});
