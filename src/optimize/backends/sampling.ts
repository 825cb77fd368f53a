// Owns the `sampling` backend: evaluation through the connected MCP client's own model. The gateway sends
// `sampling/createMessage` with the whole tool list (one description swapped in) and the prompt; the first
// `tool_use` in the answer is the selection. Only for a client that declared `sampling.tools`; the tool is
// never executed (no tool_result goes back).
import { BackendError, toolId, type BackendContext, type CompletionRequest, type EvaluationBackend, type Selection, type SelectionRequest } from './backend.js';
import { apiNames, SELECTION_SYSTEM_PROMPT } from './http-json.js';

export const SAMPLING_BACKEND = 'sampling';

export class SamplingBackend implements EvaluationBackend {
  readonly name: string;
  readonly deterministic = false;
  readonly arms = ['direct'] as const;
  /** The model the client reports in its answers ("client" until the first one). */
  private reported = 'client';
  private readonly sample: NonNullable<BackendContext['sample']>;
  /** The client declared sampling with tools (needed to select among tools; text generation works without). */
  private readonly withTools: boolean;

  constructor(name: string, context: BackendContext | undefined, private readonly modelHint?: string) {
    this.name = name;
    if (!context?.sample) {
      throw new BackendError(name, 'evaluates through the connected MCP client, so it runs only from a client session on /gateway/mcp (the CLI has no client to ask: use another backend there)');
    }
    if (!context.clientCapabilities?.sampling) {
      throw new BackendError(name, 'the connected client does not declare the sampling capability; use another backend');
    }
    this.sample = context.sample;
    this.withTools = Boolean(context.clientCapabilities.sampling.tools);
  }

  get model(): string {
    return this.reported;
  }

  async complete(request: CompletionRequest): Promise<string> {
    const answer = await this.ask({
      messages: [{ role: 'user', content: { type: 'text', text: request.user } }],
      systemPrompt: request.system,
      maxTokens: request.maxTokens,
      includeContext: 'none',
      ...(this.modelHint && { modelPreferences: { hints: [{ name: this.modelHint }] } }),
    }, request.signal);
    const parts = Array.isArray(answer.content) ? answer.content : [answer.content];
    const text = parts.filter((p): p is { type: 'text'; text: string } => typeof p === 'object' && p !== null && (p as { type?: unknown }).type === 'text' && typeof (p as { text?: unknown }).text === 'string').map((p) => p.text).join('');
    if (!text) throw new BackendError(this.name, 'the client answered sampling/createMessage without text content');
    return text;
  }

  private async ask(params: Record<string, unknown>, signal: AbortSignal | undefined): Promise<Record<string, unknown>> {
    let answer: Record<string, unknown>;
    try {
      answer = await this.sample(params, { ...(signal && { signal }) });
    } catch (error) {
      throw new BackendError(this.name, `the client's sampling/createMessage failed: ${(error as Error).message}`, { cause: error });
    }
    if (typeof answer.model === 'string' && answer.model) this.reported = answer.model.slice(0, 200);
    return answer;
  }

  async select(request: SelectionRequest): Promise<Selection> {
    if (!this.withTools) {
      throw new BackendError(this.name, 'the connected client declares sampling without tools (capabilities.sampling.tools), so its model cannot choose among tools; use another backend');
    }
    const ids = request.tools.map(toolId);
    const { toApi, fromApi } = apiNames(ids);
    const params = {
      messages: [{ role: 'user', content: { type: 'text', text: request.prompt } }],
      systemPrompt: SELECTION_SYSTEM_PROMPT,
      maxTokens: 1024,
      includeContext: 'none',
      tools: request.tools.map((t, i) => ({ name: toApi.get(ids[i]), description: t.description ?? '', inputSchema: t.inputSchema ?? { type: 'object', properties: {} } })),
      toolChoice: { mode: 'auto' },
      ...(this.modelHint && { modelPreferences: { hints: [{ name: this.modelHint }] } }),
    };
    const answer = await this.ask(params, request.signal);
    const parts = Array.isArray(answer.content) ? answer.content : [answer.content];
    const use = parts.find((p): p is { type: 'tool_use'; name: string } => typeof p === 'object' && p !== null && (p as { type?: unknown }).type === 'tool_use' && typeof (p as { name?: unknown }).name === 'string');
    return use ? { calledTool: fromApi.get(use.name) ?? use.name } : {};
  }
}
