// The docs say what the code does (issue 19 items 7, 8, 10): each claim a new user found wrong is
// checked against the behaviour or the defaults it describes, so a later change to either side
// fails here instead of misleading the next user.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../src/config/index.js';
import { REPO } from '../helpers/gateway.js';
import { runCli } from '../cli/run-cli.js';
import { tempDir } from '../helpers/gateway.js';

const doc = (file: string) => readFileSync(path.join(REPO, file), 'utf8').replace(/\s+/g, ' ');
const docs = () => ['README.md', ...readdirSync(path.join(REPO, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

describe('docs match the code', () => {
  it('a port in use exits 1 (docs/http.md), as the CLI test of that case checks', () => {
    expect(doc('docs/http.md')).not.toMatch(/does not exit/);
    expect(doc('docs/http.md')).toMatch(/a port already in use with code 1/);
  });

  it('switchboard call is recorded (docs/metrics.md; src/cli/call.ts records it)', () => {
    expect(readFileSync(path.join(REPO, 'src/cli/call.ts'), 'utf8')).toContain('gateway.recordCall(');
    expect(doc('docs/metrics.md')).not.toMatch(/made with `switchboard call`, which talks to the server directly/);
    expect(doc('docs/metrics.md')).toMatch(/Calls made with `switchboard call` are recorded/);
  });

  it('serve has --mode besides --host and --port (docs/configuration.md)', async () => {
    const help = await runCli(['serve', '--help'], await tempDir());
    for (const flag of ['--host', '--port', '--mode']) expect(help.stdout).toContain(flag);
    expect(doc('docs/configuration.md')).not.toMatch(/Only `http.host` and `http.port` have command-line flags/);
    expect(doc('docs/configuration.md')).toMatch(/`--host` and `--port` \(`http.host`, `http.port`\), `--mode` \(`mode`\)/);
  });

  it('failed servers are retried after 1, 2, 4, 8 s and the shutdown wait is the configured 1 s (docs/stdio.md)', () => {
    const { retry, shutdownGraceMs } = DEFAULT_SETTINGS.resilience;
    const delays = [0, 1, 2, 3].map((n) => Math.min(retry.initialDelayMs * 2 ** n, retry.maxDelayMs) / 1000);
    expect(delays).toEqual([1, 2, 4, 8]);
    const stdio = doc('docs/stdio.md');
    expect(stdio).not.toMatch(/not retried/);
    expect(stdio).toContain(`retried** after ${delays.slice(0, 3).join(', ')} and ${delays[3]} s`);
    expect(stdio).toContain(`waits up to ${shutdownGraceMs / 1000} s (\`resilience.shutdownGraceMs\`)`);
    expect(stdio).not.toMatch(/waits up to 2 s, sends SIGTERM/);
  });

  it('no doc points at files outside the repository (../shared, /work/shared)', () => {
    for (const file of docs()) expect(doc(file), file).not.toMatch(/\.\.\/shared\/|\/work\/shared/);
  });

  it('the README shows the Inspector stdio command with -- before Switchboard\u2019s own flags (item 8)', () => {
    const line = doc('README.md').match(/npx @modelcontextprotocol\/inspector --cli[^`]*/)?.[0];
    expect(line).toBeDefined();
    const [inspector, gateway] = line!.split(' -- ');
    expect(inspector).not.toContain('--config');
    expect(gateway).toMatch(/switchboard\.js serve --stdio --config /);
  });

  it('bench retrieval is the one command without --data-dir, and the README says so (item 10)', async () => {
    const dir = await tempDir();
    for (const command of [['serve'], ['servers'], ['tools'], ['call'], ['search'], ['metrics'], ['changes'], ['refresh'], ['toolset', 'list']]) {
      expect((await runCli([...command, '--help'], dir)).stdout, command.join(' ')).toContain('--data-dir');
    }
    expect((await runCli(['bench', 'retrieval', '--help'], dir)).stdout).not.toContain('--data-dir');
    expect(doc('README.md')).toMatch(/Every command except `bench retrieval` .* takes `--config <path>`/);
  });
});
