// Owns talking to the gateway's admin API for the terminal UI: typed requests whose answers are checked with the
// schemas of schemas.ts, errors that say what went wrong (unreachable, refused with the gateway's message, an
// answer of an unexpected shape), and server-sent event streams that reconnect by themselves.
import type { z } from 'zod';
import * as s from './schemas.js';
import { frameData, readSseFrames } from '../http/sse-frames.js';

/** The gateway did not answer at all (not running, wrong port). */
export class GatewayUnreachable extends Error {
  constructor(readonly url: string, cause: unknown) {
    super(`cannot reach the gateway at ${url}: ${(cause as Error)?.cause instanceof Error ? ((cause as Error).cause as Error).message : (cause as Error)?.message ?? String(cause)}`);
    this.name = 'GatewayUnreachable';
  }
}

/** The gateway answered with an error status; `message` is its own explanation. */
export class ApiError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
    this.name = 'ApiError';
  }
}

/** The gateway answered something this UI does not understand (another version?). */
export class UnexpectedAnswer extends Error {
  constructor(path: string, issues: string) {
    super(`unexpected answer from ${path}: ${issues}`);
    this.name = 'UnexpectedAnswer';
  }
}

export type StreamStatus = 'connecting' | 'open' | 'down';
export interface StreamHandlers {
  onEvent(type: string, data: unknown): void;
  onStatus?(status: StreamStatus, error?: string): void;
}

const RECONNECT_MIN_MS = 500;
const RECONNECT_MAX_MS = 5000;

export class AdminClient {
  constructor(
    readonly url: string,
    private readonly token?: string,
  ) {}

  private headers(json: boolean): Record<string, string> {
    return { ...(json && { 'content-type': 'application/json' }), ...(this.token && { authorization: `Bearer ${this.token}` }) };
  }

  private async raw(method: string, path: string, body?: unknown): Promise<Response> {
    let response: Response;
    try {
      response = await fetch(`${this.url}${path}`, { method, headers: this.headers(body !== undefined), ...(body !== undefined && { body: JSON.stringify(body) }), signal: AbortSignal.timeout(30_000) });
    } catch (error) {
      throw new GatewayUnreachable(this.url, error);
    }
    if (!response.ok) {
      const text = await response.text();
      let message = text;
      try {
        message = s.errorAnswer.parse(JSON.parse(text)).error;
      } catch {
        // not the JSON error shape: keep the text
      }
      throw new ApiError(response.status, `${method} ${path}: ${response.status} ${message}`.trim());
    }
    return response;
  }

  private async json<T extends z.ZodType>(schema: T, method: string, path: string, body?: unknown): Promise<z.infer<T>> {
    const response = await this.raw(method, path, body);
    const parsed = schema.safeParse(await response.json().catch(() => undefined));
    if (!parsed.success) throw new UnexpectedAnswer(path, parsed.error.issues.slice(0, 3).map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; '));
    return parsed.data;
  }

  servers() {
    return this.json(s.serversAnswer, 'GET', '/api/servers');
  }
  serverTools(key: string) {
    return this.json(s.serverToolsAnswer, 'GET', `/api/servers/${encodeURIComponent(key)}/tools`);
  }
  async setTools(key: string, enabledTools: string[], persist = true): Promise<void> {
    await this.raw('PUT', `/api/servers/${encodeURIComponent(key)}/tools`, { enabledTools, persist });
  }
  async addServer(entry: { key: string; command?: string; args?: string[]; env?: Record<string, string>; url?: string; headers?: Record<string, string> }): Promise<void> {
    await this.raw('POST', '/api/servers', entry);
  }
  async restart(key: string): Promise<void> {
    await this.raw('POST', `/api/servers/${encodeURIComponent(key)}/restart`);
  }
  search(query: string, topK = 10) {
    return this.json(s.searchAnswer, 'POST', '/api/tools/search', { query, top_k: topK });
  }
  tokens() {
    return this.json(s.tokensAnswer, 'GET', '/api/tokens');
  }
  optimization() {
    return this.json(s.optimizeAnswer, 'GET', '/api/optimize');
  }
  async startRun(request: { servers?: string[]; tools?: string[]; candidates?: number; promptsPerCategory?: number; backend?: string; autoPromoteThreshold?: number | null }): Promise<void> {
    await this.raw('POST', '/api/optimize/runs', request);
  }
  async cancelRun(): Promise<void> {
    await this.raw('DELETE', '/api/optimize/runs/current');
  }
  async revert(server: string, tool: string): Promise<void> {
    await this.raw('POST', '/api/optimize/revert', { server, tool });
  }
  prompts(server: string, tool: string) {
    return this.json(s.promptsAnswer, 'GET', `/api/optimize/prompts?server=${encodeURIComponent(server)}&tool=${encodeURIComponent(tool)}`);
  }
  async report(server?: string): Promise<string> {
    return (await this.raw('GET', `/api/optimize/report${server ? `?server=${encodeURIComponent(server)}` : ''}`)).text();
  }

  /**
   * Follows a server-sent event stream until the returned function is called; reconnects after a drop (0.5 s,
   * doubling to 5 s) and reports each change of status. Events whose data is not JSON are skipped.
   */
  stream(path: string, handlers: StreamHandlers): () => void {
    const abort = new AbortController();
    let delay = RECONNECT_MIN_MS;
    const loop = async () => {
      while (!abort.signal.aborted) {
        handlers.onStatus?.('connecting');
        try {
          const response = await fetch(`${this.url}${path}`, { headers: this.headers(false), signal: abort.signal });
          if (!response.ok || !response.body) throw new ApiError(response.status, `${path}: ${response.status} ${await response.text()}`);
          handlers.onStatus?.('open');
          delay = RECONNECT_MIN_MS;
          await readSseFrames(response.body, (type, data) => {
            const parsed = frameData(data);
            if (typeof parsed !== 'string') handlers.onEvent(type, parsed); // not JSON: nothing this UI shows
          });
          if (!abort.signal.aborted) handlers.onStatus?.('down', 'the stream ended');
        } catch (error) {
          if (abort.signal.aborted) return;
          handlers.onStatus?.('down', error instanceof ApiError ? error.message : new GatewayUnreachable(this.url, error).message);
        }
        await new Promise((resolve) => setTimeout(resolve, delay).unref?.());
        delay = Math.min(RECONNECT_MAX_MS, delay * 2);
      }
    };
    void loop();
    return () => abort.abort();
  }
}
