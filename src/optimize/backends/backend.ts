// Owns the evaluation-backend interface: given a tool list (the server's whole list with one description swapped
// in) and a prompt, which tool would the client call? Tool calls are never executed. Also the backend error type.

export interface EvalTool {
  name: string;
  /** For catalogs that span servers (retrieval over a whole catalog); model backends see names only. */
  server?: string;
  description?: string;
  inputSchema?: unknown;
}

/** How a tool is identified in selections and golden prompts: "server/name" when it carries a server, else its name. */
export function toolId(tool: Pick<EvalTool, 'name' | 'server'>): string {
  return tool.server ? `${tool.server}/${tool.name}` : tool.name;
}

export interface SelectionRequest {
  tools: readonly EvalTool[];
  prompt: string;
  /** One of the backend's arms (claude-code: "direct" or "deferred"). */
  arm: string;
  signal?: AbortSignal;
}

export interface CompletionRequest {
  system: string;
  user: string;
  maxTokens: number;
  signal?: AbortSignal;
}

export interface Selection {
  /** The tool the model (or search) chose, as `toolId`; undefined: it answered without calling a tool. */
  calledTool?: string;
  tokens?: number;
}

export interface EvaluationBackend {
  readonly name: string;
  readonly model: string;
  /** The same request always gives the same answer (repeats add nothing: run once). */
  readonly deterministic: boolean;
  /** Ways of presenting the tools; a promotion may regress none. */
  readonly arms: readonly string[];
  select(request: SelectionRequest): Promise<Selection>;
  /** Model backends only: the model's text answer to one message (candidate and golden-prompt generation). */
  complete?(request: CompletionRequest): Promise<string>;
  close?(): Promise<void>;
}

/** What the session that asked for an evaluation offers a backend: its client's model, through MCP sampling. */
export interface BackendContext {
  /** The capabilities the client declared (sampling with tools is needed to select among tools). */
  clientCapabilities?: { sampling?: { tools?: object } };
  /** Sends `sampling/createMessage` to that client on the stream of the request that asked. */
  sample?: (params: Record<string, unknown>, options: { signal?: AbortSignal }) => Promise<Record<string, unknown>>;
}

/** A backend that cannot run: a missing key, an unreachable endpoint, a missing executable. Names what to fix. */
export class BackendError extends Error {
  constructor(
    readonly backend: string,
    message: string,
    options?: ErrorOptions,
  ) {
    super(`backend "${backend}": ${message}`, options);
    this.name = 'BackendError';
  }
}

/** Reads the API key from the environment variable named in the settings; a clear error when it is unset. */
export function apiKeyFrom(backend: string, envName: string | undefined, required: boolean): string | undefined {
  if (!envName) {
    if (required) throw new BackendError(backend, 'needs "apiKeyEnv": the NAME of the environment variable holding its API key');
    return undefined;
  }
  const key = process.env[envName];
  if (!key) throw new BackendError(backend, `the environment variable ${envName} (its apiKeyEnv) is not set; export it with the API key`);
  return key;
}
