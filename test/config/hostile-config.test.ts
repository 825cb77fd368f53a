// Hostile or broken config files (issue #14, reproduced list point 7): a server named "__proto__" is
// reported, not silently dropped; a deeply nested config is exit 2 with a clear error, not a stack
// overflow (checked through the real CLI).
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../src/config/index.js';
import { CLI, REPO, tempDir } from '../helpers/gateway.js';

describe('hostile config files', () => {
  it('reports a server keyed "__proto__" instead of dropping it', () => {
    const text = '{"mcpServers": {"__proto__": {"command": "node"}, "ok": {"command": "node"}}}';
    expect(() => parseConfig(text, '/x/.mcp.json')).toThrow(ConfigError);
    expect(() => parseConfig(text, '/x/.mcp.json')).toThrow(/"__proto__" cannot be a server key/);
  });

  it('exits 2 with a clear error on a config nested 100k deep', async () => {
    const dir = await tempDir();
    const file = path.join(dir, '.mcp.json');
    await writeFile(file, `{"mcpServers": {"a": {"command": "node", "env": ${'['.repeat(100_000)}${']'.repeat(100_000)}}}}`);
    const result = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [CLI, 'servers', '--config', file, '--data-dir', path.join(dir, 'data')], { cwd: REPO });
      let stderr = '';
      child.stderr.on('data', (c: Buffer) => (stderr += c));
      child.on('exit', (code) => resolve({ code, stderr }));
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('nested deeper than 100 levels');
    expect(result.stderr).not.toContain('Maximum call stack');
  }, 30_000);
});
