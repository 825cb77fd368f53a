// Owns the `claude-code` backend: runs `claude -p <prompt> --output-format stream-json --verbose` with an isolated
// MCP config (--strict-mcp-config --mcp-config <tmp>, built-in tools off) pointing at a per-evaluation endpoint
// that lists the evaluated tool list. Isolation is verified from the `init` event's tool list; the selection is
// the first `tool_use` of one of the endpoint's tools (the process is stopped there: nothing is executed).
// Two arms: tools loaded directly, and deferred behind the client's tool search (ENABLE_TOOL_SEARCH).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { OptimizationBackendSettings } from '../../config/index.js';
import { BackendError, type EvaluationBackend, type Selection, type SelectionRequest } from './backend.js';
import { EvalEndpoint } from './eval-endpoint.js';

const SERVER_KEY = 'sb-eval';
const PREFIX = `mcp__${SERVER_KEY}__`;

export class ClaudeCodeBackend implements EvaluationBackend {
  readonly name: string;
  readonly model: string;
  readonly deterministic = false;
  readonly arms = ['direct', 'deferred'] as const;
  private readonly command: string;
  private readonly timeoutMs: number;
  private readonly endpoint = new EvalEndpoint();
  private readonly dir = mkdtempSync(path.join(os.tmpdir(), 'switchboard-claude-eval-'));

  constructor(settings: OptimizationBackendSettings, model?: string) {
    this.name = settings.name;
    this.model = model ?? settings.model ?? 'default';
    this.command = settings.command ?? 'claude';
    this.timeoutMs = settings.timeoutMs ?? 120_000;
  }

  async select(request: SelectionRequest): Promise<Selection> {
    const url = await this.endpoint.start();
    this.endpoint.setTools(request.tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema })));
    const config = path.join(this.dir, 'mcp.json');
    writeFileSync(config, JSON.stringify({ mcpServers: { [SERVER_KEY]: { type: 'http', url } } }));
    const args = ['-p', request.prompt, '--output-format', 'stream-json', '--verbose', '--strict-mcp-config', '--mcp-config', config, '--tools', ''];
    if (this.model !== 'default') args.push('--model', this.model);
    const env = { ...process.env, ENABLE_TOOL_SEARCH: request.arm === 'deferred' ? 'true' : 'false' };
    return this.run(args, env, request);
  }

  private run(args: string[], env: NodeJS.ProcessEnv, request: SelectionRequest): Promise<Selection> {
    return new Promise((resolve, reject) => {
      const child = spawn(this.command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
      let settled = false;
      let stderr = '';
      let selection: Selection | undefined;
      let tokens: number | undefined;
      const finish = (error?: Error) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (child.exitCode === null) child.kill('SIGTERM');
        if (error) reject(error);
        else resolve({ ...selection, ...(tokens !== undefined && { tokens }) });
      };
      const timer = setTimeout(() => finish(new BackendError(this.name, `${this.command} gave no answer within ${this.timeoutMs} ms (raise "timeoutMs")`)), this.timeoutMs);
      request.signal?.addEventListener('abort', () => finish(new Error('aborted')), { once: true });
      child.on('error', (error: NodeJS.ErrnoException) =>
        finish(error.code === 'ENOENT' ? new BackendError(this.name, `cannot run "${this.command}": not found; install Claude Code or set "command" to its path`, { cause: error }) : new BackendError(this.name, `cannot run "${this.command}": ${error.message}`, { cause: error })),
      );
      child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
      const lines = createInterface({ input: child.stdout });
      lines.on('line', (line) => {
        let event: { type?: string; subtype?: string; tools?: string[]; mcp_servers?: Array<{ name: string; status: string }>; message?: { content?: Array<{ type?: string; name?: string }>; usage?: { input_tokens?: number; output_tokens?: number } }; usage?: { input_tokens?: number; output_tokens?: number } };
        try {
          event = JSON.parse(line);
        } catch {
          return; // not an event line
        }
        if (event.type === 'system' && event.subtype === 'init') {
          const problem = this.isolationProblem(event.tools ?? [], event.mcp_servers ?? [], request);
          if (problem) finish(new BackendError(this.name, problem));
          return;
        }
        if (event.type === 'assistant') {
          const usage = event.message?.usage;
          if (usage) tokens = (tokens ?? 0) + (usage.input_tokens ?? 0) + (usage.output_tokens ?? 0);
          const use = event.message?.content?.find((b) => b.type === 'tool_use' && b.name?.startsWith(PREFIX));
          if (use) {
            selection = { calledTool: use.name!.slice(PREFIX.length) };
            finish(); // stop here: the call is never made
          }
        }
        if (event.type === 'result') finish();
      });
      child.on('exit', (code) => {
        if (!settled && code !== 0 && selection === undefined) finish(new BackendError(this.name, `${this.command} exited with ${code}: ${stderr.trim().slice(-500)}`));
        else finish();
      });
    });
  }

  /** Only the evaluation endpoint's tools may be loaded (in the deferred arm, plus the client's own tool search). */
  private isolationProblem(tools: readonly string[], servers: ReadonlyArray<{ name: string; status: string }>, request: SelectionRequest): string | undefined {
    const ours = servers.find((s) => s.name === SERVER_KEY);
    if (!ours || ours.status !== 'connected') return `the evaluation endpoint is not connected in claude's init event (${JSON.stringify(servers)})`;
    const foreign = servers.filter((s) => s.name !== SERVER_KEY).map((s) => s.name);
    if (foreign.length) return `not isolated: other MCP servers are loaded (${foreign.join(', ')}); --strict-mcp-config was not honoured`;
    const extra = tools.filter((t) => !t.startsWith(PREFIX) && !(request.arm === 'deferred' && /search/i.test(t)));
    if (extra.length) return `not isolated: built-in tools are loaded (${extra.slice(0, 5).join(', ')})`;
    if (request.arm === 'direct') {
      const missing = request.tools.filter((t) => !tools.includes(`${PREFIX}${t.name}`)).map((t) => t.name);
      if (missing.length) return `claude did not load every evaluated tool (missing ${missing.slice(0, 5).join(', ')})`;
    }
    return undefined;
  }

  async close(): Promise<void> {
    await this.endpoint.close();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
