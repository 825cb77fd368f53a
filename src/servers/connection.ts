// Owns one SDK client connection to one downstream server for one capability profile: starting
// it (once, memoized), raw request forwarding, notifications, reverse requests, stderr capture and
// lenient listing. It never validates or reshapes what the server returns.
import { EventEmitter } from 'node:events';
import { createInterface } from 'node:readline';
import { Client, ProtocolError, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import type { JSONRPCRequest, ServerCapabilities, Implementation, Transport } from '@modelcontextprotocol/client';
import { z } from 'zod';
import type { ServerConfig } from '../config/index.js';
import { moduleLogger, type Logger } from '../logging/logger.js';
import type { CapabilityProfile } from './profile.js';
import { buildTransport } from './transport.js';
import { serverTimeout, serverUnavailable } from './errors.js';

export type ConnectionState = 'configured' | 'connecting' | 'connected' | 'failed' | 'stopped';

export interface RawNotification {
  method: string;
  params?: Record<string, unknown>;
}

/** Answers a request the server sends to its client (sampling, elicitation, roots). */
export type ReverseRequestHandler = (
  connection: Connection,
  request: { method: string; params?: Record<string, unknown> },
  signal: AbortSignal,
) => Promise<unknown>;

export interface ConnectionOptions {
  /** A request with no answer and no progress for this long is cancelled and fails. */
  requestTimeoutMs: number;
  /** A request is cancelled after this long even while it reports progress. */
  maxRequestMs?: number;
  connectTimeoutMs?: number;
  onReverseRequest?: ReverseRequestHandler;
}

export interface ForwardOptions {
  signal?: AbortSignal;
  onprogress?: (progress: Record<string, unknown>) => void;
  timeoutMs?: number;
}

export type ListKind = 'tools' | 'prompts' | 'resources' | 'resourceTemplates';
const LIST_METHOD: Record<ListKind, string> = {
  tools: 'tools/list',
  prompts: 'prompts/list',
  resources: 'resources/list',
  resourceTemplates: 'resources/templates/list',
};
const LIST_CAPABILITY: Record<ListKind, keyof ServerCapabilities> = {
  tools: 'tools',
  prompts: 'prompts',
  resources: 'resources',
  resourceTemplates: 'resources',
};

const ANY_RESULT = z.any();
/** Progress tokens the gateway issues downstream; never reused within a process. */
const PROGRESS_TOKEN_PREFIX = 'switchboard-progress-';
let progressCounter = 0;
/** Hard upper bound for one request, whatever progress it reports (overridable per pool). */
const MAX_REQUEST_MS = 60 * 60 * 1000;
const STDERR_TAIL_LINES = 20;
const MAX_LIST_PAGES = 1000;

export class Connection extends EventEmitter {
  readonly key: string;
  state: ConnectionState = 'configured';
  lastError: string | undefined;
  connectedAt: Date | undefined;
  private client: Client | undefined;
  private starting: Promise<void> | undefined;
  private pidOf: (() => number | null) | undefined;
  private readonly stderrTail: string[] = [];
  private readonly progressRoutes = new Map<string, (progress: Record<string, unknown>) => void>();
  private readonly log: Logger;

  constructor(
    readonly config: ServerConfig,
    readonly profile: CapabilityProfile,
    private readonly options: ConnectionOptions,
  ) {
    super();
    this.key = config.key;
    this.log = moduleLogger('servers', { server: config.key });
  }

  get serverCapabilities(): ServerCapabilities | undefined {
    return this.client?.getServerCapabilities();
  }

  get serverVersion(): Implementation | undefined {
    return this.client?.getServerVersion();
  }

  get instructions(): string | undefined {
    return this.client?.getInstructions();
  }

  get pid(): number | null {
    return this.pidOf?.() ?? null;
  }

  /** The last lines the child wrote to stderr (stdio servers only), newest last. */
  get recentStderr(): readonly string[] {
    return this.stderrTail;
  }

  /** Connects if not connected; concurrent callers share one attempt. Rejects with the reason. */
  start(): Promise<void> {
    if (this.state === 'connected') return Promise.resolve();
    if (this.state === 'stopped') return Promise.reject(serverUnavailable(this.key, 'it was stopped'));
    this.starting ??= this.connect().finally(() => {
      this.starting = undefined;
    });
    return this.starting;
  }

  private async connect(): Promise<void> {
    this.setState('connecting');
    const client = new Client(
      { name: 'switchboard', version: '0.1.0' },
      { capabilities: this.profile.capabilities },
    );
    client.fallbackNotificationHandler = async (notification) => {
      this.emit('notification', notification as RawNotification);
    };
    client.fallbackRequestHandler = async (request: JSONRPCRequest, ctx) => this.answerReverse(request, ctx.mcpReq.signal);
    client.onclose = () => this.onClosed(client);
    client.onerror = (error) => this.log.debug({ err: error.message }, 'transport error');

    let built;
    try {
      built = buildTransport(this.config);
    } catch (error) {
      this.fail(`invalid transport settings: ${(error as Error).message}`);
      throw serverUnavailable(this.key, this.lastError!);
    }
    this.pidOf = built.pid;
    if (built.stderr) this.captureStderr(built.stderr);

    const timeoutMs = this.options.connectTimeoutMs ?? 30_000;
    try {
      await client.connect(built.transport, { timeout: timeoutMs });
      this.routeProgress(built.transport);
    } catch (error) {
      const reason = describeConnectError(this.config, error, this.stderrTail);
      this.fail(reason);
      await client.close().catch(() => undefined);
      throw serverUnavailable(this.key, reason);
    }
    if (this.state !== 'connecting') {
      // Stopped while connecting.
      await client.close().catch(() => undefined);
      throw serverUnavailable(this.key, 'it was stopped');
    }
    const reconnect = this.connectedAt !== undefined;
    this.client = client;
    this.connectedAt = new Date();
    this.lastError = undefined;
    this.setState('connected');
    const version = client.getServerVersion();
    this.log.info({ transport: this.config.transport, pid: this.pid, serverInfo: version, protocol: client.getNegotiatedProtocolVersion() }, reconnect ? 'reconnected' : 'connected');
    if (reconnect) this.emit('reconnected');
  }

  /**
   * Progress for forwarded requests is taken off the wire here, in arrival order. The SDK hands
   * notifications to handlers a microtask late, after a response that arrived in the same chunk
   * has already retired the request, which loses the last progress update; and it would replace
   * our token with its own. Tokens we did not issue go on to the SDK as usual.
   */
  private routeProgress(transport: Transport): void {
    const deliver = transport.onmessage;
    transport.onmessage = (message, extra) => {
      const candidate = message as { method?: string; params?: Record<string, unknown> };
      if (candidate.method === 'notifications/progress' && candidate.params) {
        const { progressToken, ...progress } = candidate.params;
        if (typeof progressToken === 'string' && progressToken.startsWith(PROGRESS_TOKEN_PREFIX)) {
          this.progressRoutes.get(progressToken)?.(progress);
          return;
        }
      }
      deliver?.call(transport, message, extra);
    };
  }

  private captureStderr(stream: NodeJS.ReadableStream): void {
    const lines = createInterface({ input: stream });
    lines.on('line', (line) => {
      this.stderrTail.push(line);
      if (this.stderrTail.length > STDERR_TAIL_LINES) this.stderrTail.shift();
      this.log.info({ stream: 'stderr' }, line);
    });
    lines.on('error', () => undefined);
  }

  private onClosed(client: Client): void {
    if (this.client !== client) return;
    this.client = undefined;
    if (this.state === 'stopped') return;
    const tail = this.stderrTail.at(-1);
    this.fail(`connection closed${tail ? ` (last stderr: ${tail})` : ''}`);
    this.emit('closed');
  }

  private fail(reason: string): void {
    this.lastError = reason;
    this.setState('failed');
    this.log.warn({ reason }, 'server unavailable');
  }

  private setState(state: ConnectionState): void {
    if (this.state === state) return;
    this.state = state;
    this.emit('state', state);
  }

  private async answerReverse(request: JSONRPCRequest, signal: AbortSignal): Promise<never> {
    if (!this.options.onReverseRequest) throw new ProtocolError(-32601, `Method not found: ${request.method}`);
    return (await this.options.onReverseRequest(this, { method: request.method, params: request.params }, signal)) as never;
  }

  /** The connected client, starting the connection first if needed (a failed one is retried). */
  private async ready(): Promise<Client> {
    if (this.state !== 'connected') await this.start();
    if (!this.client) throw serverUnavailable(this.key, this.lastError ?? 'not connected');
    return this.client;
  }

  /**
   * Forwards one request verbatim and returns the raw result. Errors from the server are rethrown
   * as they came. The timeout restarts on every progress update (up to a hard maximum); a request
   * that times out or whose signal aborts is cancelled downstream.
   */
  async request(method: string, params: Record<string, unknown> | undefined, options: ForwardOptions = {}): Promise<Record<string, unknown>> {
    const client = await this.ready();
    const timeout = options.timeoutMs ?? this.options.requestTimeoutMs;
    const timedOut = new AbortController();
    let idle: NodeJS.Timeout | undefined;
    const arm = () => {
      clearTimeout(idle);
      idle = setTimeout(() => timedOut.abort(), timeout);
    };
    let forwarded = params;
    let token: string | undefined;
    if (options.onprogress) {
      token = `${PROGRESS_TOKEN_PREFIX}${++progressCounter}`;
      const onprogress = options.onprogress;
      this.progressRoutes.set(token, (progress) => {
        arm();
        onprogress(progress);
      });
      forwarded = { ...params, _meta: { ...(params?._meta as Record<string, unknown> | undefined), progressToken: token } };
    }
    arm();
    const signal = options.signal ? AbortSignal.any([options.signal, timedOut.signal]) : timedOut.signal;
    try {
      return await client.request({ method: method as 'ping', params: forwarded }, ANY_RESULT, {
        signal,
        timeout: this.options.maxRequestMs ?? MAX_REQUEST_MS,
      });
    } catch (error) {
      if (timedOut.signal.aborted && !options.signal?.aborted) throw serverTimeout(this.key, method, timeout);
      throw this.translate(error, method, this.options.maxRequestMs ?? MAX_REQUEST_MS);
    } finally {
      clearTimeout(idle);
      if (token) this.progressRoutes.delete(token);
    }
  }

  async notify(method: string, params?: Record<string, unknown>): Promise<void> {
    if (this.state !== 'connected' || !this.client) return;
    await this.client.notification({ method, params } as never).catch((error: Error) => {
      this.log.debug({ method, err: error.message }, 'notification not delivered');
    });
  }

  private translate(error: unknown, method: string, timeout: number): unknown {
    if (error instanceof ProtocolError) return error;
    if (error instanceof SdkError) {
      if (error.code === SdkErrorCode.RequestTimeout) return serverTimeout(this.key, method, timeout);
      if (error.code === SdkErrorCode.ConnectionClosed || error.code === SdkErrorCode.NotConnected) {
        return serverUnavailable(this.key, this.lastError ?? 'the connection closed during the request');
      }
    }
    if (error instanceof Error && error.name === 'AbortError') return error;
    return serverUnavailable(this.key, (error as Error)?.message ?? String(error));
  }

  /** Whether the server advertised what a list needs. */
  supports(kind: ListKind): boolean {
    return Boolean(this.serverCapabilities?.[LIST_CAPABILITY[kind]]);
  }

  /** Reads every page of a list, without schema validation (malformed entries are the catalog's business). */
  async listAll(kind: ListKind): Promise<unknown[]> {
    await this.ready();
    if (!this.supports(kind)) return [];
    const items: unknown[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_LIST_PAGES; page++) {
      const result = await this.request(LIST_METHOD[kind], cursor ? { cursor } : {});
      const batch = result[kind];
      if (Array.isArray(batch)) items.push(...batch);
      cursor = typeof result.nextCursor === 'string' && result.nextCursor ? result.nextCursor : undefined;
      if (!cursor) return items;
    }
    this.log.warn({ kind }, `stopped listing after ${MAX_LIST_PAGES} pages`);
    return items;
  }

  async stop(): Promise<void> {
    this.setState('stopped');
    const client = this.client;
    this.client = undefined;
    await this.starting?.catch(() => undefined);
    if (client) await client.close().catch(() => undefined);
  }
}

function describeConnectError(config: ServerConfig, error: unknown, stderr: readonly string[]): string {
  const err = error as NodeJS.ErrnoException;
  if (config.transport === 'stdio' && err?.code === 'ENOENT') {
    return `command not found: "${config.command}" (is it installed and on PATH?)`;
  }
  if (config.transport === 'stdio' && err?.code === 'EACCES') return `command is not executable: "${config.command}"`;
  const message = err?.message ?? String(error);
  const tail = stderr.length ? ` (last stderr: ${stderr.at(-1)})` : '';
  if (config.transport !== 'stdio') return `cannot reach ${config.url}: ${message}`;
  return `${message}${tail}`;
}
