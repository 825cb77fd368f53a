// Owns the chat models the llm re-ranking mode can ask: an OpenAI-compatible `/chat/completions`
// endpoint (any base URL up to the API version; key read from a named environment variable), and MCP
// sampling through the connected client (only handed in when the client declared `sampling`). Both
// answer one prompt with the model's text, bounded by a timeout and an answer token budget.

/** One question to a chat model: a system prompt and one user message; the answer's text comes back. */
export interface ChatModel {
  /** Short label for notes and logs (`openai:<model>` or `sampling`). */
  readonly label: string;
  complete(request: { system: string; user: string; maxTokens: number; signal: AbortSignal }): Promise<string>;
}

/** The model failed or answered something unusable; the caller falls back. */
export class ChatModelError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ChatModelError';
  }
}

export interface OpenAiChatSettings {
  baseUrl: string;
  model: string;
  /** Name of the environment variable holding the API key (never the key itself). */
  apiKeyEnv?: string;
}

const MAX_BODY = 1_000_000;

export class OpenAiChatModel implements ChatModel {
  readonly label: string;

  constructor(private readonly settings: OpenAiChatSettings) {
    this.label = `openai:${settings.model}`;
  }

  async complete(request: { system: string; user: string; maxTokens: number; signal: AbortSignal }): Promise<string> {
    const key = this.settings.apiKeyEnv ? process.env[this.settings.apiKeyEnv] : undefined;
    if (this.settings.apiKeyEnv && !key) throw new ChatModelError(`environment variable ${this.settings.apiKeyEnv} (search.llm.apiKeyEnv) is not set`);
    const url = `${this.settings.baseUrl.replace(/\/+$/, '')}/chat/completions`;
    const payload = JSON.stringify({
      model: this.settings.model,
      messages: [
        { role: 'system', content: request.system },
        { role: 'user', content: request.user },
      ],
      max_tokens: request.maxTokens,
      temperature: 0,
    });
    let response: Response | undefined;
    // A connection the endpoint closed while it sat in the pool fails before any answer ("fetch
    // failed"): sent once more on a fresh one while the caller's time lasts. Timeouts are not retried.
    for (let attempt = 1; response === undefined; attempt++) {
      try {
        response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...(key && { authorization: `Bearer ${key}` }) }, body: payload, signal: request.signal });
      } catch (error) {
        const aborted = (error as Error).name === 'AbortError' || (error as Error).name === 'TimeoutError' || request.signal.aborted;
        if (!aborted && attempt < 2) continue;
        const cause = (error as { cause?: { code?: string; message?: string } }).cause;
        throw new ChatModelError(`${url}: ${aborted ? 'timed out' : `${(error as Error).message}${cause ? ` (${cause.code ?? cause.message})` : ''}`}`);
      }
    }
    const text = await response.text();
    if (!response.ok) throw new ChatModelError(`${url} answered HTTP ${response.status}: ${text.slice(0, 200)}`);
    if (text.length > MAX_BODY) throw new ChatModelError(`${url} answered more than ${MAX_BODY} characters`);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new ChatModelError(`${url} answered something that is not JSON: ${text.slice(0, 100)}`);
    }
    const content = (body as { choices?: Array<{ message?: { content?: unknown } }> }).choices?.[0]?.message?.content;
    if (typeof content !== 'string') throw new ChatModelError(`${url} answered without choices[0].message.content`);
    return content;
  }
}

/** The MCP `sampling/createMessage` request as a function (the client's session sends it). */
export type CreateMessage = (
  params: {
    messages: Array<{ role: 'user'; content: { type: 'text'; text: string } }>;
    systemPrompt: string;
    maxTokens: number;
    temperature?: number;
    includeContext?: 'none';
  },
  options: { signal: AbortSignal; timeout?: number },
) => Promise<{ content: unknown }>;

/** A chat model reached through the connected client's sampling capability. */
export function samplingChatModel(createMessage: CreateMessage): ChatModel {
  return {
    label: 'sampling',
    async complete({ system, user, maxTokens, signal }) {
      let result: { content: unknown };
      try {
        result = await createMessage({ messages: [{ role: 'user', content: { type: 'text', text: user } }], systemPrompt: system, maxTokens, temperature: 0, includeContext: 'none' }, { signal });
      } catch (error) {
        throw new ChatModelError(`sampling/createMessage failed: ${(error as Error).message}`);
      }
      const parts = Array.isArray(result.content) ? result.content : [result.content];
      const text = parts
        .filter((p): p is { type: 'text'; text: string } => typeof p === 'object' && p !== null && (p as { type?: unknown }).type === 'text' && typeof (p as { text?: unknown }).text === 'string')
        .map((p) => p.text)
        .join('');
      if (!text) throw new ChatModelError('sampling/createMessage answered without text content');
      return text;
    },
  };
}
