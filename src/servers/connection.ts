// Owns one SDK client connection to one downstream server for one capability profile: its life
// (connect, retry on the schedule of retry-schedule.ts, restart after a crash or failed health
// checks, a circuit breaker that fails calls fast, a clean stop that leaves no process behind),
// notifications, reverse requests and lenient listing. One attempt to reach the server is dial.ts;
// sending a request is request-sender.ts. It never validates or reshapes what the server returns.
import { EventEmitter } from 'node:events';
import { ProtocolError, type Client } from '@modelcontextprotocol/client';
import { ServerBreaker } from './breaker.js';
import type { JSONRPCRequest, ServerCapabilities, Implementation } from '@modelcontextprotocol/client';
import type { ServerConfig } from '../config/index.js';
import { moduleLogger, type Logger } from '../logging/logger.js';
import type { CapabilityProfile } from './profile.js';
import { serverNeedsLogin, serverUnavailable } from './errors.js';
import { isLoginRequired } from '../auth/errors.js';
import { LoginGate } from './login-gate.js';
import { RetrySchedule } from './retry-schedule.js';
import { StderrTail } from './stderr-tail.js';
import { serverRedactor } from './secrets.js';
import { serverIdentity } from './identity.js';
import { HealthMonitor } from './health.js';
import { listenForChanges } from './downstream-era.js';
import { DEFAULT_RESILIENCE, type ResilienceOptions } from './resilience-options.js';
import { closeAndReap } from './process-tree.js';
import { DialFailure, dial, type DialHandlers } from './dial.js';
import { RequestSender } from './request-sender.js';
import type { ConnectionOptionsFor, ForwardOptions, ReverseRequestHandlerFor } from './connection-options.js';
import { stderrSuffix } from './connect-error.js';
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

/** A connection that lived at least this long before dying is restarted at once, not after a backoff. */
const STABLE_AFTER_MS = 10_000;

export class Connection extends EventEmitter {
  readonly key: string;
  /** The server's identity (src/servers/identity.ts), once per connection: recorded with each call. */
  readonly identity: string;
  lastError: string | undefined;
  connectedAt: Date | undefined;
  /** Last time the server proved alive (an answered call or health check). */
  lastSuccessAt: Date | undefined;
  /** Since when the server has been unavailable (unset while it is up). */
  downSince: Date | undefined;
  /** Restarts after a crash, a failed health check or a hang. */
  restarts = 0;
  private lifecycle: ConnectionState = 'configured';
  private client: Client | undefined;
  private starting: Promise<void> | undefined;
  private readonly retry: RetrySchedule;
  private health: HealthMonitor | undefined;
  private readonly breaker: ServerBreaker;
  private readonly resilience: ResilienceOptions;
  private pidOf: (() => number | null) | undefined;
  private exitOf: (() => string | undefined) | undefined;
  private readonly stderr = new StderrTail();
  /** Takes this server's configured secrets (env, header values, URL credentials) out of text shown or logged. */
  private readonly redact: (text: string) => string;
  /** Sends requests (the hot path, progress, timeouts); counts those in flight. */
  private readonly sender: RequestSender;
  /** What arrives on each new client goes here (see dial.ts). */
  private readonly dialHandlers: DialHandlers = {
    notification: (notification, callers) => this.emit('notification', notification, callers),
    reverseRequest: (request, signal) => this.answerReverse(request, signal),
    closed: (client) => this.onClosed(client),
    built: (built) => {
      this.pidOf = built.pid;
      this.exitOf = built.exit;
    },
  };
  private readonly log: Logger;
  private readonly login: LoginGate;

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
    this.retry = new RetrySchedule(this.resilience.retry);
    this.login = new LoginGate(config, options.credentials, this.log, this.redact);
    this.breaker = new ServerBreaker(this.key, this.resilience.breaker, this.log, () => this.emit('state', this.state));
    this.sender = new RequestSender(this.key, {
      answered: () => this.proveAlive(),
      timedOut: (client) => {
        if (this.client === client) this.setState('degraded');
      },
      loginLost: (client, error) => this.loginLost(client, error),
      downState: () => ({ lastError: this.lastError, downSince: this.downSince }),
    });
  }

  /** The lifecycle state, or `circuit-open` while the breaker refuses calls. */
  get state(): ConnectionState {
    if (this.lifecycle !== 'stopped' && this.breaker.open) return 'circuit-open';
    return this.lifecycle;
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
      nextRetryAt: iso(this.retry.nextRetryAt),
      restarts: this.restarts,
      lastError: this.lastError ?? null,
      needsLogin: this.login.blocked,
      serverInfo: this.serverVersion ?? null,
      era: this.client?.getProtocolEra() ?? null,
    };
  }

  /** The last lines the child wrote to stderr (stdio servers only), newest last. */
  get recentStderr(): readonly string[] {
    return this.stderr.lines;
  }

  /**
   * Connects if not connected; concurrent callers share one attempt, which also replaces a
   * scheduled retry. A failed attempt schedules the next one with backoff (up to maxAttempts).
   */
  start(): Promise<void> {
    if (this.client && this.lifecycle !== 'connecting') return Promise.resolve();
    if (this.lifecycle === 'stopped') return Promise.reject(serverUnavailable(this.key, 'it was stopped'));
    // Nothing changes until someone logs in: fail at once, without a request the server would refuse.
    if (this.login.blocked) return Promise.reject(serverNeedsLogin(this.key));
    if (!this.starting) {
      this.retry.cancel();
      this.starting = this.attempt().finally(() => {
        this.starting = undefined;
      });
    }
    return this.starting;
  }

  private async attempt(): Promise<void> {
    this.setState('connecting');
    try {
      await this.connect();
    } catch (error) {
      this.downSince ??= new Date();
      if (isLoginRequired(error) || this.login.blocked) {
        if (this.lifecycle !== 'stopped') this.setState('failed'); // no retry: only a login helps
        throw error;
      }
      this.retry.attempts++;
      if (this.lifecycle !== 'stopped') {
        this.setState('failed');
        this.retryLater();
      }
      throw error;
    }
  }

  /** Schedules the next reconnect after a backoff, unless attempts are used up (then the next use retries). */
  private retryLater(): void {
    if (!this.retry.schedule(() => this.start().catch(() => undefined))) {
      this.log.warn({ attempts: this.retry.attempts }, 'giving up reconnecting until the server is used again');
    }
  }

  private async connect(): Promise<void> {
    let dialed;
    try {
      dialed = await dial({
        config: this.config,
        profile: this.profile,
        auth: this.login.auth(),
        connectTimeoutMs: this.resilience.connectTimeoutMs,
        stderr: this.stderr,
        log: this.log,
        redact: this.redact,
        handlers: this.dialHandlers,
        close: (client, pid) => this.closeClient(client, pid),
      });
    } catch (error) {
      if (!(error instanceof DialFailure)) throw error;
      if (error.kind === 'login') {
        this.needLogin(error.cause);
        throw serverNeedsLogin(this.key);
      }
      this.noteFailure(error.message);
      throw serverUnavailable(this.key, this.lastError!, error.kind === 'connect' ? { downSince: this.downSince ?? new Date() } : undefined);
    }
    const { client, built } = dialed;
    this.sender.progress.attach(built.transport);
    this.sender.logCallers.attach(built.transport);
    if (client.getProtocolEra() !== 'modern') this.sender.raw.attach(built.transport);
    if (this.lifecycle !== 'connecting') {
      // Stopped while connecting.
      await this.closeClient(client, built.pid?.() ?? null);
      throw serverUnavailable(this.key, 'it was stopped');
    }
    const reconnect = this.connectedAt !== undefined;
    this.client = client;
    this.connectedAt = new Date();
    this.lastError = undefined;
    this.downSince = undefined;
    this.setState('connected');
    // The 2026-07-28 era has no ping: a modern server is checked by its requests only.
    if (client.getProtocolEra() !== 'modern') this.watchHealth(client);
    else void listenForChanges(client, this.log);
    const version = client.getServerVersion();
    this.log.info({ transport: this.config.transport, pid: this.pid, serverInfo: version, protocol: client.getNegotiatedProtocolVersion(), era: client.getProtocolEra() }, reconnect ? 'reconnected' : 'connected');
    this.emit('up', reconnect);
  }

  private watchHealth(client: Client): void {
    if (this.config.ping === false) return;
    this.health = new HealthMonitor(client, this.resilience.healthCheck, {
      alive: () => this.proveAlive(),
      busy: () => this.sender.busy,
      silent: (consecutive) => {
        if (this.client !== client) return;
        this.setState('degraded');
        this.log.warn({ consecutive }, 'health check got no answer');
        if (consecutive >= this.resilience.healthCheck.failuresBeforeRestart) void this.recycle(`no answer to ${consecutive} health checks`);
      },
    });
    this.health.start();
  }

  /** The server answered something: it is up, and a past run of failures is forgiven. */
  private proveAlive(): void {
    this.lastSuccessAt = new Date();
    this.retry.attempts = 0;
    if (this.lifecycle === 'degraded') this.setState('connected');
  }

  /**
   * Restarts the server because someone asked (the admin API): a running one is recycled (stopped, started
   * again), one that failed or gave up retrying is started now with a fresh retry schedule. Counts as a restart.
   */
  async restart(reason: string): Promise<void> {
    if (this.lifecycle === 'stopped') return;
    if (this.client) {
      await this.recycle(reason);
      return;
    }
    this.restarts++;
    this.retry.attempts = 0;
    await this.start();
  }

  /** Restarts a live but unhealthy server (hung, not answering health checks). */
  private async recycle(reason: string): Promise<void> {
    const client = this.client;
    if (!client || this.lifecycle === 'stopped') return;
    this.log.warn({ reason: this.redact(reason) }, 'restarting the server');
    this.restarts++;
    this.noteFailure(reason);
    this.downSince = new Date();
    this.client = undefined;
    this.health?.stop();
    this.setState('connecting');
    await this.closeClient(client, this.pid);
    this.start().catch(() => undefined);
  }

  /** The connection closed without us asking: the server crashed or exited. Restart it. */
  private onClosed(client: Client): void {
    if (this.client !== client) return;
    this.client = undefined;
    this.health?.stop();
    if (this.lifecycle === 'stopped') return;
    const exit = this.exitOf?.();
    this.noteFailure(`${exit ? `the server ${exit}` : 'connection closed'}${stderrSuffix(this.stderr.lines)}`);
    this.downSince = new Date();
    this.restarts++;
    const lived = Date.now() - (this.connectedAt?.getTime() ?? 0);
    this.retry.attempts = lived >= STABLE_AFTER_MS ? 0 : this.retry.attempts + 1;
    this.emit('closed');
    if (this.retry.attempts === 0) {
      this.start().catch(() => undefined);
    } else {
      this.setState('failed');
      this.retryLater();
    }
  }

  /** The server refused us for good: remember it (for every connection to it), and retry nothing until a login. */
  private needLogin(error: unknown): void {
    if (!this.login.blocked) this.login.refused(error);
    this.retry.cancel();
    this.lastError = serverNeedsLogin(this.key).message;
  }

  /** A call found the login gone (revoked, refresh refused): drop the connection; calls fail at once until a login. */
  private loginLost(client: Client, error: unknown): never {
    this.needLogin(error);
    if (this.client === client) {
      this.client = undefined;
      this.health?.stop();
      this.downSince = new Date();
      this.setState('failed');
      void this.closeClient(client, null);
    }
    throw serverNeedsLogin(this.key);
  }

  private noteFailure(reason: string): void {
    this.lastError = this.redact(reason);
    this.log.warn({ reason: this.lastError }, 'server unavailable');
  }

  private setState(state: ConnectionState): void {
    if (this.lifecycle === state) return;
    this.lifecycle = state;
    this.emit('state', this.state);
  }

  private closeClient(client: Client, pid: number | null): Promise<void> {
    return closeAndReap(client, pid, this.resilience.shutdownGraceMs, this.log);
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
  async request(method: string, params: Record<string, unknown> | undefined, options: ForwardOptions = {}): Promise<Record<string, unknown>> {
    return this.breaker.execute(
      () => this.send(method, params, options),
      () => ({ lastError: this.lastError, downSince: this.downSince }),
    );
  }

  private async send(method: string, params: Record<string, unknown> | undefined, options: ForwardOptions): Promise<Record<string, unknown>> {
    const client = await this.ready();
    const timeout = options.timeoutMs ?? this.config.requestTimeoutMs ?? this.options.requestTimeoutMs;
    const maxRequestMs = this.resilience.maxRequestMs;
    if (!options.onprogress) return this.sender.sendPlain(client, method, params, options.signal, Math.min(timeout, maxRequestMs), options.caller);
    return this.sender.sendWithProgress(client, method, params, options as ForwardOptions & { onprogress: NonNullable<ForwardOptions['onprogress']> }, timeout, maxRequestMs);
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

  /** Stops for good: no more retries or health checks, and no process of the server left running. */
  async stop(): Promise<void> {
    this.setState('stopped');
    this.retry.cancel();
    this.health?.stop();
    const client = this.client;
    const pid = this.pid;
    this.client = undefined;
    await this.starting?.catch(() => undefined);
    if (client) await this.closeClient(client, pid);
  }
}
