// `switchboard doctor` on a set-up with something wrong in each area (issue 16 item 6): a server
// whose command does not exist, an entry with an unset variable, a data dir others can read, a
// database of another program, the port taken, a client set up with the shim and one not; each is
// reported with what to do, exit 1; a healthy set-up exits 0. Temporary HOME, nothing started.
import { execFile } from 'node:child_process';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { CLI, npmServer, tempDir, writeConfig } from '../helpers/gateway.js';

const run = promisify(execFile);
type Check = { area: string; status: string; message: string; fix?: string };

async function doctor(args: string[], home: string): Promise<{ code: number; stdout: string }> {
  try {
    const { stdout } = await run(process.execPath, [CLI, 'doctor', ...args], { env: { ...process.env, HOME: home, NO_COLOR: '1' } });
    return { code: 0, stdout };
  } catch (error) {
    const e = error as { code: number; stdout: string };
    return { code: e.code, stdout: e.stdout };
  }
}

describe('switchboard doctor', () => {
  it('names each problem with its fix and exits 1; a healthy set-up passes', async () => {
    const home = await tempDir('switchboard-doctor-home-');
    await mkdir(path.join(home, '.cursor'), { recursive: true });
    await writeFile(path.join(home, '.cursor', 'mcp.json'), JSON.stringify({ mcpServers: { switchboard: { command: 'node', args: ['/x/bin/switchboard.js', 'connect'] } } }));
    await mkdir(path.join(home, '.config', 'Claude'), { recursive: true });
    await writeFile(path.join(home, '.config', 'Claude', 'claude_desktop_config.json'), JSON.stringify({ mcpServers: { a: { command: 'x' }, b: { command: 'y' } } }));
    const config = await writeConfig({
      memory: npmServer('memory'),
      ghost: { command: 'no-such-command-switchboard-test', args: [] },
      keyed: { command: 'node', args: ['${SWITCHBOARD_DOCTOR_UNSET_VAR}'] },
    });
    const dataDir = path.join(path.dirname(config), 'data');
    await mkdir(dataDir, { recursive: true });
    await chmod(dataDir, 0o755);
    await writeFile(path.join(dataDir, 'switchboard.db'), 'not a database at all, and not empty either');
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', () => resolve()));
    const port = (blocker.address() as net.AddressInfo).port;
    try {
      const result = await doctor(['--config', config, '--data-dir', dataDir, '--port', String(port), '--json'], home);
      expect(result.code).toBe(1);
      const { ok, checks } = JSON.parse(result.stdout) as { ok: boolean; checks: Check[] };
      expect(ok).toBe(false);
      const find = (area: string) => checks.find((c) => c.area === area)!;
      expect(find('node')).toMatchObject({ status: 'ok' });
      expect(find('server memory')).toMatchObject({ status: 'ok' });
      expect(find('server ghost')).toMatchObject({ status: 'fail', message: expect.stringContaining('no-such-command-switchboard-test'), fix: expect.stringContaining('full path') });
      expect(find('server keyed')).toMatchObject({ status: 'warn', message: expect.stringContaining('SWITCHBOARD_DOCTOR_UNSET_VAR') });
      expect(find('data dir')).toMatchObject({ status: 'warn', fix: `chmod 700 ${dataDir}` });
      expect(find('database')).toMatchObject({ status: 'fail', fix: expect.stringContaining('never re-initialized') });
      expect(find('port')).toMatchObject({ status: 'warn', message: expect.stringContaining(`127.0.0.1:${port} is in use`) });
      expect(find('daemon')).toMatchObject({ status: 'info' });
      expect(find('client cursor')).toMatchObject({ status: 'ok', message: expect.stringContaining('uses the shim') });
      expect(find('client claude-desktop')).toMatchObject({ status: 'info', fix: '"switchboard install --client claude-desktop" moves them behind Switchboard' });

      const text = await doctor(['--config', config, '--data-dir', dataDir, '--port', String(port)], home);
      expect(text.stdout).toMatch(/^FAIL  server ghost: /m);
      expect(text.stdout).toMatch(/-> install it, or give its full path/);
      expect(text.stdout).toMatch(/2 problem\(s\) to fix/);
    } finally {
      blocker.close();
    }

    const healthyConfig = await writeConfig({ memory: npmServer('memory') });
    const healthy = await doctor(['--config', healthyConfig, '--data-dir', path.join(path.dirname(healthyConfig), 'data'), '--port', '0'], home);
    expect(healthy.code).toBe(0);
    expect(healthy.stdout).toContain('No problems found');
    const missing = await doctor(['--config', path.join(home, 'nope.json'), '--data-dir', path.join(home, 'd')], home);
    expect(missing.code).toBe(1);
    expect(missing.stdout).toContain('switchboard import');
  });
});
