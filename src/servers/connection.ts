// Owns one SDK client connection to one downstream server for one capability profile, as the rest of
// the gateway sees it: its state and status, requests through a circuit breaker that fails calls fast,
// notifications, reverse requests and lenient listing. Its life (start, retry with backoff, health
// checks, restart, a clean stop that leaves no process behind) is supervisor.ts; one attempt to reach
// the server is dial.ts; sending a request is request-sender.ts. It never validates or reshapes what
// the server returns.
import { EventEmitter } from 'node:events';
import { ProtocolError, type Client } from '@modelcontextprotocol/client';
import { ServerBreaker } from './breaker.js';
import type { JSONRPCRequest, ServerCapabilities, Implementation } from '@modelcontextprotocol/client';
import type { ServerConfig } from '../config/index.js';
import { moduleLogger, type Logger } from '../logging/logger.js';
import type { CapabilityProfile } from './profile.js';
import { serverUnavailable } from './errors.js';
import { serverRedactor } from './secrets.js';
import { serverIdentity } from './identity.js';
import { DEFAULT_RESILIENCE, type ResilienceOptions } from './resilience-options.js';
import { RequestSender } from './request-sender.js';
import { ConnectionSupervisor } from './supervisor.js';
import type { ConnectionOptionsFor, ForwardOptions, ReverseRequestHandlerFor } from './connection-options.js';
import { readAllPages, supportsList, type ListKind } from './listing.js';
import type { ConnectionState, ConnectionStatus } from './connection-status.js';

export { DEFAULT_RESILIENCE, type ResilienceOptions } from './resilience-options.js';
export type { ForwardOptions } from './connection-options.js';
export type { ConnectionState, ConnectionStatus } from './connection-status.js';
export type { ListKind } from './listing.js';
export type { RawNotification } from './dial.js';

/** Answers a request the server sends to its client (sampling, elicitation, roots). */
export type ReverseRequestHandler = ReverseRequestHandlerFor<Connection>;
export type ConnectionOptions = ConnectionOptionsFor<Connection>;

export class Connection extends EventEmitter {
  readonly key: string;
  /** The server's identity (src/servers/identity.ts), once per connection: recorded with each call. */
  readonly identity: string;
  /** Starts, retries, restarts and stops the connection; holds the live client and the facts of its life. */
  private readonly supervisor: ConnectionSupervisor;
  private readonly breaker: ServerBreaker;
  private readonly resilience: ResilienceOptions;
  /** Takes this server's configured secrets (env, header values, URL credentials) out of text shown or logged. */
  private readonly redact: (text: string) => string;
  /** Sends requests (the hot path, progress, timeouts); counts those in flight. */
  private readonly sender: RequestSender;
  private readonly log: Logger;

  constructor(
    readonly config: ServerConfig,
    readonly profile: CapabilityProfile,
    private readonly options: ConnectionOptions,
    identity: string = serverIdentity(config),
  ) {
    super();
    this.key = config.key;
    this.identity = identity;
    this.redact = serverRedactor(config);
    this.log = moduleLogger('servers', { server: config.key });
    this.resilience = options.resilience ?? DEFAULT_RESILIENCE;
    this.supervisor = new ConnectionSupervisor(
      { config, profile, resilience: this.resilience, credentials: options.credentials, log: this.log, redact: this.redact },
      {
        stateChanged: () => this.emit('state', this.state),
        up: (reconnect) => this.emit('up', reconnect),
        closed: () => this.emit('closed'),
        attach: (built, legacyEra) => {
          this.sender.progress.attach(built.transport);
          this.sender.logCallers.attach(built.transport);
          if (legacyEra) this.sender.raw.attach(built.transport);
        },
        busy: () => this.sender.busy,
        notification: (notification, callers) => this.emit('notification', notification, callers),
        reverseRequest: (request, signal) => this.answerReverse(request, signal),
      },
    );
    this.breaker = new ServerBreaker(this.key, this.resilience.breaker, this.log, () => this.emit('state', this.state));
    this.sender = new RequestSender(this.key, {
      answered: () => this.supervisor.proveAlive(),
      timedOut: (client) => this.supervisor.timedOut(client),
      loginLost: (client, error) => this.supervisor.loginLost(client, error),
      downState: () => ({ lastError: this.lastError, downSince: this.downSince }),
    });
  }

  /** Connected (or degraded: up but not answering health checks), whatever the breaker says. */
  get running(): boolean {
    return this.lifecycle === 'connected' || this.lifecycle === 'degraded';
  }

  /** The lifecycle state, or `circuit-open` while the breaker refuses calls. */
  get state(): ConnectionState {
    if (this.lifecycle !== 'stopped' && this.breaker.open) return 'circuit-open';
    return this.lifecycle;
  }

  get lastError(): string | undefined {
    return this.supervisor.life.lastError;
  }

  get connectedAt(): Date | undefined {
    return this.supervisor.life.connectedAt;
  }

  /** Last time the server proved alive (an answered call or health check). */
  get lastSuccessAt(): Date | undefined {
    const ms = this.supervisor.life.lastSuccessMs;
    return ms === undefined ? undefined : new Date(ms);
  }

  /** Since when the server has been unavailable (unset while it is up). */
  get downSince(): Date | undefined {
    return this.supervisor.life.downSince;
  }

  /** Restarts after a crash, a failed health check or a hang, and on request. */
  get restarts(): number {
    return this.supervisor.life.restarts;
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
    return this.supervisor.pid;
  }

  /** What `switchboard servers` and the admin API show about this connection. */
  status(): ConnectionStatus {
    const iso = (d: Date | undefined) => d?.toISOString() ?? null;
    return {
      state: this.state,
      profile: this.profile.key,
      pid: this.pid,
      connectedAt: iso(this.connectedAt),
      lastSuccessAt: iso(this.lastSuccessAt),
      downSince: iso(this.downSince),
      nextRetryAt: iso(this.supervisor.nextRetryAt),
      restarts: this.restarts,
      lastError: this.lastError ?? null,
      needsLogin: this.supervisor.needsLogin,
      serverInfo: this.serverVersion ?? null,
      era: this.client?.getProtocolEra() ?? null,
    };
  }

  /** The last lines the child wrote to stderr (stdio servers only), newest last. */
  get recentStderr(): readonly string[] {
    return this.supervisor.recentStderr;
  }

  /**
   * Connects if not connected; concurrent callers share one attempt, which also replaces a
   * scheduled retry. A failed attempt schedules the next one with backoff (up to maxAttempts).
   */
  start(): Promise<void> {
    return this.supervisor.start();
  }

  /**
   * Restarts the server because someone asked (the admin API): a running one is recycled (stopped, started
   * again), one that failed or gave up retrying is started now with a fresh retry schedule. Counts as a restart.
   */
  restart(reason: string): Promise<void> {
    return this.supervisor.restart(reason);
  }

  /** Stops for good: no more retries or health checks, and no process of the server left running. */
  stop(): Promise<void> {
    return this.supervisor.stop();
  }

  /** The connected client (unset while connecting, down or stopped). */
  private get client(): Client | undefined {
    return this.supervisor.client;
  }

  private get lifecycle(): ConnectionState {
    return this.supervisor.lifecycle;
  }

  private async answerReverse(request: JSONRPCRequest, signal: AbortSignal): Promise<never> {
    if (!this.options.onReverseRequest) throw new ProtocolError(-32601, `Method not found: ${request.method}`);
    return (await this.options.onReverseRequest(this, { method: request.method, params: request.params }, signal)) as never;
  }

  /** The connected client, starting the connection first if needed (a failed one is retried at once). */
  private async ready(): Promise<Client> {
    if (!this.client || this.lifecycle === 'connecting') await this.start();
    if (!this.client) throw serverUnavailable(this.key, this.lastError ?? 'not connected', { downSince: this.downSince });
    return this.client;
  }

  /**
   * Forwards one request verbatim and returns the raw result. Errors from the server are rethrown
   * as they came. The timeout restarts on every progress update (up to a hard maximum); a request
   * that times out or whose signal aborts is cancelled downstream.
   */
  request(method: string, params: Record<string, unknown> | undefined, options: ForwardOptions = {}): Promise<Record<string, unknown>> {
    return this.breaker.execute(
      () => this.send(method, params, options),
      () => ({ lastError: this.lastError, downSince: this.downSince }),
    );
  }

  /** Sends on the connected client; waits for ready() only when there is none (no promise layer on the usual path). */
  private send(method: string, params: Record<string, unknown> | undefined, options: ForwardOptions): Promise<Record<string, unknown>> {
    const client = this.client;
    if (!client || this.lifecycle === 'connecting') return this.ready().then((ready) => this.sendOn(ready, method, params, options));
    return this.sendOn(client, method, params, options);
  }

  private sendOn(client: Client, method: string, params: Record<string, unknown> | undefined, options: ForwardOptions): Promise<Record<string, unknown>> {
    const timeout = options.timeoutMs ?? this.config.requestTimeoutMs ?? this.options.requestTimeoutMs;
    const maxRequestMs = this.resilience.maxRequestMs;
    if (!options.onprogress) return this.sender.sendPlain(client, method, params, options, Math.min(timeout, maxRequestMs));
    return this.sender.sendWithProgress(client, method, params, options as ForwardOptions & { onprogress: NonNullable<ForwardOptions['onprogress']> }, timeout, maxRequestMs);
  }

  /** Runs `then` (which must not throw) once none of this connection's requests is in flight, or after `maxWaitMs` at the latest. */
  whenIdle(then: () => void, maxWaitMs: number): void {
    this.sender.whenIdle(then, maxWaitMs);
  }

  async notify(method: string, params?: Record<string, unknown>): Promise<void> {
    if (this.state !== 'connected' || !this.client) return;
    await this.client.notification({ method, params } as never).catch((error: Error) => {
      this.log.debug({ method, err: this.redact(error.message) }, 'notification not delivered');
    });
  }

  /** Whether the server advertised what a list needs. */
  supports(kind: ListKind): boolean {
    return supportsList(this.serverCapabilities, kind);
  }

  /** Reads every page of a list, without schema validation (malformed entries are the catalog's business). */
  async listAll(kind: ListKind): Promise<unknown[]> {
    // The capabilities of the client that will answer, not `this.client`'s: a stop between ready()
    // and here clears this.client, and reading "no tools capability" then would list nothing.
    const client = await this.ready();
    if (!supportsList(client.getServerCapabilities(), kind)) return [];
    return readAllPages(kind, (method, params) => this.request(method, params), (pages) => this.log.warn({ kind }, `stopped listing after ${pages} pages`));
  }
}
