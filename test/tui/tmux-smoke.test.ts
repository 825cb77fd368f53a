// The terminal UI in a real terminal: tmux (80x24) runs `node bin/switchboard.js tui --url ...` against a real
// gateway fronting real npm servers; every view is reached by its key, each modal opened, a retrieval
// optimization run and its progress panel seen, and `q` leaves the shell's terminal sane (canonical mode and echo
// back on, the normal screen). Each screen is saved as text under test-results/tui/ (the README shows two).
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { connectHttp, npmServer, REPO, startHttpGateway, waitFor, writeConfig, type ConnectedClient, type RunningGateway } from '../helpers/gateway.js';
import { api } from '../helpers/admin-api.js';
import { SUM_PROMPTS } from '../optimize/sum-prompts.js';

const SOCKET = `switchboard-tui-test-${process.pid}`;
const SCREENS = path.join(REPO, 'test-results/tui');
const tmux = (...args: string[]) => execFileSync('tmux', ['-L', SOCKET, ...args], { encoding: 'utf8' });
const screen = () => tmux('capture-pane', '-p', '-t', 'tui');
const keys = (...k: string[]) => tmux('send-keys', '-t', 'tui', ...k);
const typed = (text: string) => tmux('send-keys', '-t', 'tui', '-l', text);

async function until(match: string | RegExp, what = String(match), timeoutMs = 30_000): Promise<string> {
  try {
    return await waitFor(() => {
      const s = screen();
      return (typeof match === 'string' ? s.includes(match) : match.test(s)) && s;
    }, what, timeoutMs);
  } catch (error) {
    throw new Error(`${(error as Error).message}; screen:\n${screen()}`);
  }
}

function save(name: string, text: string): void {
  mkdirSync(SCREENS, { recursive: true });
  writeFileSync(path.join(SCREENS, `${name}.txt`), text);
}

const open: Array<RunningGateway | ConnectedClient> = [];
afterEach(async () => {
  try {
    tmux('kill-server');
  } catch {
    // already gone
  }
  for (const o of open.splice(0).reverse()) await o.close().catch(() => undefined);
});

describe('TUI in tmux', () => {
  it('navigates every view and modal at 80x24, runs a retrieval optimization and quits leaving the terminal sane', async () => {
    const config = await writeConfig({ everything: npmServer('everything'), memory: npmServer('memory', [], { MEMORY_FILE_PATH: '/dev/null' }) }, { http: { unauthenticatedAdmin: true }, optimization: { enabled: true } });
    const gateway = await startHttpGateway(config);
    open.push(gateway);
    expect((await api(gateway.url, 'POST', '/api/optimize/prompts', { server: 'everything', prompts: SUM_PROMPTS })).status).toBe(201);
    const client = await connectHttp(gateway.url);
    open.push(client);
    await client.client.callTool({ name: 'everything_echo', arguments: { message: 'from the smoke test' } });

    tmux('new-session', '-d', '-x', '80', '-y', '24', '-s', 'tui', '-c', REPO, 'env', '-i', `PATH=${process.env.PATH}`, 'TERM=xterm-256color', 'HOME=/tmp', 'bash', '--norc', '--noprofile');
    typed(`PS1='$ '; ${process.execPath} bin/switchboard.js tui --url ${gateway.url}; echo "TUI-EXITED $?"`);
    keys('Enter');

    // Servers (the start view): states and tool counts.
    save('servers', await until(/memory\s+\S+\s+9\/9/, 'the servers view with tool counts'));
    keys('t');
    save('configure-tools', await until('Selected: 13/13 tools'));
    keys('Escape');
    await until('r restart');
    keys('C-a');
    save('add-server', await until('Add Server'));
    keys('Escape');
    await until('r restart');

    // Activity: the call made above, replayed and live.
    keys('l');
    save('activity', await until(/everything\s+echo\s+ok/));

    // Search: typed, ranked with scores; token bars.
    keys('/');
    await until('Search: ▏');
    typed('sum of two numbers');
    save('search', await until(/everything_get-sum[\s\S]*passthrough\s+█/));
    keys('Escape'); // back to where search was opened from
    await until('^L clear');

    // Optimization: per server dots, golden prompts, Optimize Tools, a retrieval run and its progress panel.
    keys('o');
    save('optimization', await until('0/13 tools optimized'));
    for (let i = 0; i < 30 && !/›\s+○ get-sum/.test(screen()); i++) {
      const before = screen();
      keys('Down');
      await waitFor(() => screen() !== before, 'the selection to move');
    }
    keys('p');
    save('golden-prompts', await until('direct (6)'));
    keys('Escape');
    await until('d detail');
    keys('o');
    save('optimize-tools', await until('Selected: 1/13 tools'));
    keys('Enter');
    save('optimization-run', await until(/Run completed[\s\S]*100%/, 'the run to complete', 60_000));
    await until(/● get-sum/);
    keys('d');
    save('detail', await until(/Promoted \(\d+ chars\)/));
    keys('Escape');
    await until('d detail');
    keys('C-o');
    save('batch', await until('Batch optimize: every server'));
    keys('Escape');
    await until('d detail');

    // Command menu, help, connect.
    keys('C-k');
    save('command-menu', await until('Server Management'));
    keys('Escape');
    await until('d detail');
    keys('?');
    save('help', await until('Command menu'));
    keys('Escape');
    await until('d detail');
    keys('i');
    save('connect', await until('Connect MCP clients'));
    keys('Escape');
    await until('d detail');

    // q: the TUI exits 0 and the shell's terminal is back to normal (canonical mode, echo).
    keys('q');
    const after = await until('TUI-EXITED 0');
    expect(after).not.toContain('Switchboard servers');
    typed("stty -a | tr ' ' '\\n' | grep -xE -- '-?(icanon|echo)' | tr '\\n' ' '; echo STTY-DONE");
    keys('Enter');
    const stty = await until(/icanon echo\s*STTY-DONE|echo icanon\s*STTY-DONE/, 'stty to show icanon and echo on');
    save('after-quit', stty);
  }, 60_000);

  it('says the gateway is unreachable, and on SIGTERM restores the terminal and exits 143', async () => {
    tmux('new-session', '-d', '-x', '80', '-y', '24', '-s', 'tui', '-c', REPO, 'env', '-i', `PATH=${process.env.PATH}`, 'TERM=xterm-256color', 'HOME=/tmp', 'bash', '--norc', '--noprofile');
    typed(`PS1='$ '; ${process.execPath} bin/switchboard.js tui --url http://127.0.0.1:9; echo "TUI-EXITED $?"`);
    keys('Enter');
    save('unreachable', await until('Gateway unreachable at http://127.0.0.1:9'));
    const shell = tmux('list-panes', '-t', 'tui', '-F', '#{pane_pid}').trim();
    const tui = await waitFor(() => execFileSync('ps', ['-o', 'pid=', '--ppid', shell], { encoding: 'utf8' }).trim().split(/\s+/)[0], 'the tui process');
    process.kill(Number(tui), 'SIGTERM');
    const after = await until('TUI-EXITED 143');
    expect(after).not.toContain('Gateway unreachable');
    typed("stty -a | tr ' ' '\\n' | grep -xE -- '-?(icanon|echo)' | tr '\\n' ' '; echo STTY-DONE");
    keys('Enter');
    await until(/icanon echo\s*STTY-DONE|echo icanon\s*STTY-DONE/, 'stty to show icanon and echo on');
  }, 30_000);
});
