// A first run where there is no .mcp.json (issue 19 item 12): the path once, and what to do next.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO, tempDir } from '../helpers/gateway.js';
import { runCli } from './run-cli.js';

describe('no config file', () => {
  it('names the file once and says to pass --config (the demo) or import a client config; exit 2', async () => {
    const dir = await tempDir();
    const missing = path.join(dir, '.mcp.json');
    const { code, stderr } = await runCli(['tools', '--config', missing], path.join(dir, 'data'));
    expect(code).toBe(2);
    expect(stderr.split(missing).length - 1).toBe(1);
    expect(stderr).toContain(`--config ${path.join(REPO, 'examples/demo.mcp.json')}`);
    expect(stderr).toMatch(/copy the "mcpServers" object of your \.mcp\.json \(Claude Code\)/);
  });
});
