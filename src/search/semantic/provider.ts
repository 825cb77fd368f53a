// Owns talking to an OpenAI-compatible embeddings endpoint (POST {baseUrl}/embeddings, as served by
// OpenAI, Ollama, vLLM, llama.cpp, TEI, LM Studio): batching, a timeout per request, the API key read
// from an environment variable, and typed errors that name the endpoint and what to do.
import type { SearchSettings } from '../../config/types.js';

/** What the provider needs: the `search.embeddings` settings (see SearchSettings in config/types.ts). */
export type EmbeddingSettings = NonNullable<SearchSettings['embeddings']>;

export type EmbeddingErrorCode = 'unreachable' | 'timeout' | 'http_error' | 'bad_response' | 'missing_key';

export class EmbeddingError extends Error {
  constructor(
    readonly code: EmbeddingErrorCode,
    message: string,
    options?: ErrorOptions & { status?: number },
  ) {
    super(message, options);
    this.name = 'EmbeddingError';
    if (options?.status !== undefined) this.status = options.status;
  }
  readonly status?: number;
}

export interface EmbeddingProvider {
  /** Identifies the vector space: vectors of different models are never compared. */
  readonly model: string;
  readonly endpoint: string;
  /** One vector per text, in order. */
  embed(texts: readonly string[], signal?: AbortSignal): Promise<Float32Array[]>;
}

export const DEFAULT_BATCH_SIZE = 64;
export const DEFAULT_EMBED_TIMEOUT_MS = 15_000;

export class OpenAiCompatibleProvider implements EmbeddingProvider {
  readonly model: string;
  readonly endpoint: string;
  private readonly batchSize: number;
  private readonly timeoutMs: number;

  constructor(private readonly settings: EmbeddingSettings, private readonly env: NodeJS.ProcessEnv = process.env) {
    this.endpoint = `${settings.baseUrl.replace(/\/+$/, '')}/embeddings`;
    // Shortened vectors are a different space than full ones: keep them apart in the store.
    this.model = settings.dimensions ? `${settings.model}@${settings.dimensions}` : settings.model;
    this.batchSize = settings.batchSize ?? DEFAULT_BATCH_SIZE;
    this.timeoutMs = settings.timeoutMs ?? DEFAULT_EMBED_TIMEOUT_MS;
  }

  async embed(texts: readonly string[], signal?: AbortSignal): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (let i = 0; i < texts.length; i += this.batchSize) out.push(...(await this.request(texts.slice(i, i + this.batchSize), signal)));
    return out;
  }

  private headers(): Record<string, string> {
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    const name = this.settings.apiKeyEnv;
    if (name) {
      const key = this.env[name];
      if (!key) throw new EmbeddingError('missing_key', `embeddings: environment variable ${name} (search.embeddings.apiKeyEnv) is not set; set it or remove apiKeyEnv for a local endpoint`);
      headers.authorization = `Bearer ${key}`;
    }
    return headers;
  }

  private async request(input: readonly string[], signal?: AbortSignal): Promise<Float32Array[]> {
    const body = JSON.stringify({ model: this.settings.model, input, encoding_format: 'float', ...(this.settings.dimensions && { dimensions: this.settings.dimensions }) });
    const timeout = AbortSignal.timeout(this.timeoutMs);
    let response: Response;
    try {
      response = await fetch(this.endpoint, { method: 'POST', headers: this.headers(), body, signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
    } catch (error) {
      if (timeout.aborted) throw new EmbeddingError('timeout', `embeddings: ${this.endpoint} did not answer within ${this.timeoutMs} ms (search.embeddings.timeoutMs)`, { cause: error });
      if (error instanceof EmbeddingError || signal?.aborted) throw error; // the caller gave up: not the endpoint's fault
      const reason = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message;
      throw new EmbeddingError('unreachable', `embeddings: cannot reach ${this.endpoint} (${reason}); is the embedding server running? Check search.embeddings.baseUrl`, { cause: error });
    }
    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      if (timeout.aborted) throw new EmbeddingError('timeout', `embeddings: ${this.endpoint} did not finish its answer within ${this.timeoutMs} ms (search.embeddings.timeoutMs)`, { cause: error });
      if (signal?.aborted) throw error;
      throw new EmbeddingError('unreachable', `embeddings: the connection to ${this.endpoint} broke while reading its answer (${(error as Error).message})`, { cause: error });
    }
    if (!response.ok) {
      const detail = text.slice(0, 300).replace(/\s+/g, ' ');
      const hint = response.status === 401 || response.status === 403 ? ' Check the API key' : response.status === 404 ? ' Check baseUrl (it should end with /v1) and the model name' : '';
      throw new EmbeddingError('http_error', `embeddings: ${this.endpoint} answered HTTP ${response.status}: ${detail}.${hint}`, { status: response.status });
    }
    return parseEmbeddings(text, input.length, this.endpoint);
  }
}

/** Reads `{data: [{index, embedding}]}`; every vector must be present, numeric and of one length. */
export function parseEmbeddings(text: string, expected: number, endpoint: string): Float32Array[] {
  const bad = (why: string) => new EmbeddingError('bad_response', `embeddings: ${endpoint} sent an unusable answer: ${why}`);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw bad('not JSON');
  }
  const data = (json as { data?: unknown }).data;
  if (!Array.isArray(data)) throw bad('no "data" array');
  if (data.length !== expected) throw bad(`${data.length} vectors for ${expected} texts`);
  const out = new Array<Float32Array>(expected);
  let dims = -1;
  data.forEach((item, position) => {
    const { index, embedding } = (item ?? {}) as { index?: unknown; embedding?: unknown };
    const at = typeof index === 'number' ? index : position;
    if (!Number.isInteger(at) || at < 0 || at >= expected || out[at]) throw bad(`bad or repeated index ${String(index)}`);
    if (!Array.isArray(embedding) || embedding.length === 0 || !embedding.every((x) => typeof x === 'number' && Number.isFinite(x))) {
      throw bad(`vector ${at} is not a list of numbers (base64 encoding is not supported)`);
    }
    if (dims >= 0 && embedding.length !== dims) throw bad(`vectors of different lengths (${dims} and ${embedding.length})`);
    dims = embedding.length;
    out[at] = Float32Array.from(embedding as number[]);
  });
  return out;
}
