// Owns the `openai` backend: any OpenAI-compatible chat completions endpoint with tools (OpenAI, Ollama, vLLM,
// llama.cpp). The model sees the whole tool list and the prompt; the first tool call it makes is the selection.
import type { OptimizationBackendSettings } from '../../config/index.js';
import { apiKeyFrom, BackendError, toolId, type CompletionRequest, type EvaluationBackend, type Selection, type SelectionRequest } from './backend.js';
import { apiNames, postJson, SELECTION_SYSTEM_PROMPT } from './http-json.js';

export class OpenAiBackend implements EvaluationBackend {
  readonly name: string;
  readonly model: string;
  readonly deterministic = false;
  readonly arms = ['direct'] as const;
  private readonly url: string;
  private readonly key: string | undefined;
  private readonly timeoutMs: number;

  constructor(settings: OptimizationBackendSettings, model?: string) {
    this.name = settings.name;
    if (!settings.baseUrl) throw new BackendError(settings.name, 'needs "baseUrl", e.g. https://api.openai.com/v1 or http://127.0.0.1:11434/v1');
    const chosen = model ?? settings.model;
    if (!chosen) throw new BackendError(settings.name, 'needs a model: set "model" or pass --model');
    this.model = chosen;
    this.url = `${settings.baseUrl.replace(/\/+$/, '')}/chat/completions`;
    this.key = apiKeyFrom(settings.name, settings.apiKeyEnv, false);
    this.timeoutMs = settings.timeoutMs ?? 60_000;
  }

  async complete(request: CompletionRequest): Promise<string> {
    const body = {
      model: this.model,
      messages: [
        { role: 'system', content: request.system },
        { role: 'user', content: request.user },
      ],
      max_tokens: request.maxTokens,
    };
    const answer = await postJson(this.name, this.url, this.key ? { authorization: `Bearer ${this.key}` } : {}, body, this.timeoutMs, request.signal);
    const content = (answer.choices as Array<{ message?: { content?: unknown } }> | undefined)?.[0]?.message?.content;
    if (typeof content !== 'string') throw new BackendError(this.name, `${this.url} answered without choices[0].message.content: ${JSON.stringify(answer).slice(0, 200)}`);
    return content;
  }

  async select(request: SelectionRequest): Promise<Selection> {
    const ids = request.tools.map(toolId);
    const { toApi, fromApi } = apiNames(ids);
    const body = {
      model: this.model,
      messages: [
        { role: 'system', content: SELECTION_SYSTEM_PROMPT },
        { role: 'user', content: request.prompt },
      ],
      tools: request.tools.map((t, i) => ({
        type: 'function',
        function: { name: toApi.get(ids[i]), description: t.description ?? '', parameters: t.inputSchema ?? { type: 'object', properties: {} } },
      })),
      tool_choice: 'auto',
    };
    const answer = await postJson(this.name, this.url, this.key ? { authorization: `Bearer ${this.key}` } : {}, body, this.timeoutMs, request.signal);
    const choices = answer.choices as Array<{ message?: { tool_calls?: Array<{ function?: { name?: string } }> } }> | undefined;
    if (!Array.isArray(choices)) throw new BackendError(this.name, `${this.url} answered without "choices": ${JSON.stringify(answer).slice(0, 200)}`);
    const called = choices[0]?.message?.tool_calls?.[0]?.function?.name;
    const usage = answer.usage as { total_tokens?: number } | undefined;
    return { ...(called !== undefined && { calledTool: fromApi.get(called) ?? called }), ...(usage?.total_tokens !== undefined && { tokens: usage.total_tokens }) };
  }
}
