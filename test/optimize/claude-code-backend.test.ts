// The claude-code backend against a stand-in `claude` executable that prints stream-json in the real format
// (init with tools and mcp_servers, assistant tool_use, result) after listing the per-evaluation endpoint's
// tools over real HTTP: selections from tool_use, both arms, isolation checked from init, clear errors.
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createBackend } from '../../src/optimize/backends/index.js';
import type { EvaluationBackend } from '../../src/optimize/backends/backend.js';
import { REPO } from '../helpers/gateway.js';

const STANDIN = path.join(REPO, 'test/fixtures/claude-standin.mjs');
const tools = [
  { name: 'get-sum', description: 'Adds two numbers and returns the total.', inputSchema: { type: 'object', properties: {} } },
  { name: 'echo', description: 'Echoes back the input message.', inputSchema: { type: 'object', properties: {} } },
];
const backends: EvaluationBackend[] = [];
afterEach(async () => {
  for (const b of backends.splice(0)) await b.close?.();
  delete process.env.CLAUDE_STANDIN_EXTRA_TOOLS;
});
function backend(command = STANDIN): EvaluationBackend {
  const b = createBackend([{ name: 'cc', type: 'claude-code', command, timeoutMs: 20_000 }], 'cc');
  backends.push(b);
  return b;
}

describe('claude-code backend (stand-in claude)', () => {
  it('reads the selection from tool_use in both arms, with the swapped description served to the client', async () => {
    const b = backend();
    expect(b.arms).toEqual(['direct', 'deferred']);
    expect(await b.select({ tools, prompt: 'echo back my message', arm: 'direct' })).toEqual({ calledTool: 'echo', tokens: 1230 });
    expect((await b.select({ tools, prompt: 'what is the total of my bills', arm: 'deferred' })).calledTool).toBe('get-sum');
    expect((await b.select({ tools, prompt: 'tell me a joke', arm: 'direct' })).calledTool).toBeUndefined();
    // The same prompt with a swapped description: the client saw the new text through the endpoint.
    const swapped = [{ ...tools[0], description: 'Adds numbers; use for bills and invoices.' }, tools[1]];
    expect((await b.select({ tools: swapped, prompt: 'sum my invoices', arm: 'direct' })).calledTool).toBe('get-sum');
    expect((await b.select({ tools, prompt: 'sum my invoices', arm: 'direct' })).calledTool).toBeUndefined();
  }, 60_000);

  it('refuses a run that is not isolated, and names a missing executable', async () => {
    process.env.CLAUDE_STANDIN_EXTRA_TOOLS = 'Bash,Read';
    await expect(backend().select({ tools, prompt: 'echo back my message', arm: 'direct' })).rejects.toThrow('backend "cc": not isolated: built-in tools are loaded (Bash, Read)');
    delete process.env.CLAUDE_STANDIN_EXTRA_TOOLS;
    await expect(backend('/nonexistent/claude').select({ tools, prompt: 'x', arm: 'direct' })).rejects.toThrow('cannot run "/nonexistent/claude": not found; install Claude Code or set "command" to its path');
  }, 60_000);
});
