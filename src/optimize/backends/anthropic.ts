// Owns the `anthropic` backend: the Messages API with tools. The first tool_use block of the answer is the
// selection; the tool is never run.
import type { OptimizationBackendSettings } from '../../config/index.js';
import { apiKeyFrom, BackendError, toolId, type CompletionRequest, type EvaluationBackend, type Selection, type SelectionRequest } from './backend.js';
import { apiNames, postJson, SELECTION_SYSTEM_PROMPT } from './http-json.js';

export class AnthropicBackend implements EvaluationBackend {
  readonly name: string;
  readonly model: string;
  readonly deterministic = false;
  readonly arms = ['direct'] as const;
  private readonly url: string;
  private readonly key: string;
  private readonly timeoutMs: number;

  constructor(settings: OptimizationBackendSettings, model?: string) {
    this.name = settings.name;
    const chosen = model ?? settings.model;
    if (!chosen) throw new BackendError(settings.name, 'needs a model: set "model" or pass --model');
    this.model = chosen;
    this.url = `${(settings.baseUrl ?? 'https://api.anthropic.com').replace(/\/+$/, '')}/v1/messages`;
    this.key = apiKeyFrom(settings.name, settings.apiKeyEnv, true)!;
    this.timeoutMs = settings.timeoutMs ?? 60_000;
  }

  async complete(request: CompletionRequest): Promise<string> {
    const body = { model: this.model, max_tokens: request.maxTokens, system: request.system, messages: [{ role: 'user', content: request.user }] };
    const answer = await postJson(this.name, this.url, { 'x-api-key': this.key, 'anthropic-version': '2023-06-01' }, body, this.timeoutMs, request.signal);
    const content = answer.content as Array<{ type?: string; text?: string }> | undefined;
    const text = Array.isArray(content) ? content.filter((b) => b.type === 'text' && typeof b.text === 'string').map((b) => b.text).join('') : '';
    if (!text) throw new BackendError(this.name, `${this.url} answered without text content: ${JSON.stringify(answer).slice(0, 200)}`);
    return text;
  }

  async select(request: SelectionRequest): Promise<Selection> {
    const ids = request.tools.map(toolId);
    const { toApi, fromApi } = apiNames(ids);
    const body = {
      model: this.model,
      max_tokens: 1024,
      system: SELECTION_SYSTEM_PROMPT,
      messages: [{ role: 'user', content: request.prompt }],
      tools: request.tools.map((t, i) => ({ name: toApi.get(ids[i]), description: t.description ?? '', input_schema: t.inputSchema ?? { type: 'object', properties: {} } })),
    };
    const answer = await postJson(this.name, this.url, { 'x-api-key': this.key, 'anthropic-version': '2023-06-01' }, body, this.timeoutMs, request.signal);
    const content = answer.content as Array<{ type?: string; name?: string }> | undefined;
    if (!Array.isArray(content)) throw new BackendError(this.name, `${this.url} answered without "content": ${JSON.stringify(answer).slice(0, 200)}`);
    const called = content.find((block) => block.type === 'tool_use')?.name;
    const usage = answer.usage as { input_tokens?: number; output_tokens?: number } | undefined;
    const tokens = usage ? (usage.input_tokens ?? 0) + (usage.output_tokens ?? 0) : undefined;
    return { ...(called !== undefined && { calledTool: fromApi.get(called) ?? called }), ...(tokens !== undefined && { tokens }) };
  }
}
