// Owns the life of one connection to one server: starting it (concurrent callers share one attempt),
// retrying a failed start on the backoff of retry-schedule.ts, health checks, restarting it after a
// crash, unanswered health checks or on request, dropping it when its login is lost, and stopping it
// for good with no process left behind. It holds the live SDK client and the facts about its life that
// status reports read. Reaching the server once is dial.ts; what is done with a live client (requests,
// listing, notifications) and the circuit breaker are connection.ts's business.
import type { Client } from '@modelcontextprotocol/client';
import type { CredentialStore } from '../auth/credential-store.js';
import { isLoginRequired } from '../auth/errors.js';
import type { ServerConfig } from '../config/index.js';
import type { Logger } from '../logging/logger.js';
import { stderrSuffix } from './connect-error.js';
import type { ConnectionState } from './connection-status.js';
import { DialFailure, dial, type DialHandlers } from './dial.js';
import { listenForChanges } from './downstream-era.js';
import { serverNeedsLogin, serverUnavailable } from './errors.js';
import { HealthMonitor } from './health.js';
import { LoginGate } from './login-gate.js';
import { closeAndReap } from './process-tree.js';
import type { CapabilityProfile } from './profile.js';
import type { ResilienceOptions } from './resilience-options.js';
import { RetrySchedule } from './retry-schedule.js';
import { StderrTail } from './stderr-tail.js';
import type { BuiltTransport } from './transport.js';

/** A connection that lived at least this long before dying is restarted at once, not after a backoff. */
const STABLE_AFTER_MS = 10_000;

/** What the supervisor tells, and asks, the connection it keeps alive; built once per connection. */
export interface SupervisedConnection {
  /** The lifecycle state changed. */
  stateChanged(): void;
  /** The server is connected; `reconnect` when it had been connected before. */
  up(reconnect: boolean): void;
  /** The connection closed without being asked to (the server crashed or exited). */
  closed(): void;
  /** A new client is connected over this transport: route its progress updates and log messages (and, for a 2025-era server, the relay lane's answers). */
  attach(built: BuiltTransport, legacyEra: boolean): void;
  /** Whether requests are in flight (then an unanswered health check proves nothing). */
  busy(): boolean;
  /** A notification arrived, with the client sessions it belongs to (see dial.ts). */
  notification: DialHandlers['notification'];
  /** The server sent its client a request (sampling, elicitation, roots). */
  reverseRequest: DialHandlers['reverseRequest'];
}

export interface SupervisorOptions {
  config: ServerConfig;
  profile: CapabilityProfile;
  resilience: ResilienceOptions;
  /** Stored OAuth logins for remote servers; absent: only configured headers are sent. */
  credentials: CredentialStore | undefined;
  log: Logger;
  /** Takes the server's configured secrets out of text shown or logged. */
  redact: (text: string) => string;
}

/** What is known about a connection's life; only the supervisor writes it. */
export interface LifeFacts {
  lastError: string | undefined;
  connectedAt: Date | undefined;
  /** Last time the server proved alive (an answered call or health check), in ms: set on every answer, so no Date is made there. */
  lastSuccessMs: number | undefined;
  /** Since when the server has been unavailable (unset while it is up). */
  downSince: Date | undefined;
  /** Restarts after a crash, a failed health check or a hang, and on request. */
  restarts: number;
}

export class ConnectionSupervisor {
  private readonly facts: LifeFacts = { lastError: undefined, connectedAt: undefined, lastSuccessMs: undefined, downSince: undefined, restarts: 0 };
  private state: ConnectionState = 'configured';
  private current: Client | undefined;
  private starting: Promise<void> | undefined;
  private health: HealthMonitor | undefined;
  private pidOf: (() => number | null) | undefined;
  private exitOf: (() => string | undefined) | undefined;
  private readonly retry: RetrySchedule;
  private readonly login: LoginGate;
  private readonly stderr = new StderrTail();
  private readonly key: string;
  private readonly log: Logger;
  /** What arrives on each new client goes here (see dial.ts). */
  private readonly dialHandlers: DialHandlers;

  constructor(
    private readonly options: SupervisorOptions,
    private readonly connection: SupervisedConnection,
  ) {
    this.key = options.config.key;
    this.log = options.log;
    this.retry = new RetrySchedule(options.resilience.retry);
    this.login = new LoginGate(options.config, options.credentials, options.log, options.redact);
    this.dialHandlers = {
      notification: (notification, callers) => connection.notification(notification, callers),
      reverseRequest: (request, signal) => connection.reverseRequest(request, signal),
      closed: (client) => this.onClosed(client),
      built: (built) => {
        this.pidOf = built.pid;
        this.exitOf = built.exit;
      },
    };
  }

  /** The connected client; unset while connecting, down or stopped. */
  get client(): Client | undefined {
    return this.current;
  }

  /** The lifecycle state (the circuit breaker is the connection's, not folded in here). */
  get lifecycle(): ConnectionState {
    return this.state;
  }

  /** The facts status reports read. */
  get life(): Readonly<LifeFacts> {
    return this.facts;
  }

  get pid(): number | null {
    return this.pidOf?.() ?? null;
  }

  /** When the next automatic attempt is due, if one is scheduled. */
  get nextRetryAt(): Date | undefined {
    return this.retry.nextRetryAt;
  }

  /** A remote server refused us until someone runs `switchboard login <key>`. */
  get needsLogin(): boolean {
    return this.login.blocked;
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
    if (this.current && this.state !== 'connecting') return Promise.resolve();
    if (this.state === 'stopped') return Promise.reject(serverUnavailable(this.key, 'it was stopped'));
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

  /**
   * Restarts the server because someone asked (the admin API): a running one is recycled (stopped, started
   * again), one that failed or gave up retrying is started now with a fresh retry schedule. Counts as a restart.
   */
  async restart(reason: string): Promise<void> {
    if (this.state === 'stopped') return;
    if (this.current) {
      await this.recycle(reason);
      return;
    }
    this.facts.restarts++;
    this.retry.attempts = 0;
    await this.start();
  }

  /** The server answered something: it is up, and a past run of failures is forgiven. */
  proveAlive(): void {
    this.facts.lastSuccessMs = Date.now();
    this.retry.attempts = 0;
    if (this.state === 'degraded') this.setState('connected');
  }

  /** A request on `client` got no answer in time: the connection is degraded (if that client is still the live one). */
  timedOut(client: Client): void {
    if (this.current === client) this.setState('degraded');
  }

  /** A call found the login gone (revoked, refresh refused): drop the connection; calls fail at once until a login. */
  loginLost(client: Client, error: unknown): never {
    this.needLogin(error);
    if (this.current === client) {
      this.current = undefined;
      this.health?.stop();
      this.facts.downSince = new Date();
      this.setState('failed');
      void this.closeClient(client, null);
    }
    throw serverNeedsLogin(this.key);
  }

  /** Stops for good: no more retries or health checks, and no process of the server left running. */
  async stop(): Promise<void> {
    this.setState('stopped');
    this.retry.cancel();
    this.health?.stop();
    const client = this.current;
    const pid = this.pid;
    this.current = undefined;
    await this.starting?.catch(() => undefined);
    if (client) await this.closeClient(client, pid);
  }

  private async attempt(): Promise<void> {
    this.setState('connecting');
    try {
      await this.connect();
    } catch (error) {
      this.facts.downSince ??= new Date();
      if (isLoginRequired(error) || this.login.blocked) {
        if (this.state !== 'stopped') this.setState('failed'); // no retry: only a login helps
        throw error;
      }
      this.retry.attempts++;
      if (this.state !== 'stopped') {
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
    const { config, resilience } = this.options;
    let dialed;
    try {
      dialed = await dial({
        config,
        profile: this.options.profile,
        auth: this.login.auth(),
        connectTimeoutMs: resilience.connectTimeoutMs,
        stderr: this.stderr,
        log: this.log,
        redact: this.options.redact,
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
      throw serverUnavailable(this.key, this.facts.lastError!, error.kind === 'connect' ? { downSince: this.facts.downSince ?? new Date() } : undefined);
    }
    const { client, built } = dialed;
    this.connection.attach(built, client.getProtocolEra() !== 'modern');
    if (this.state !== 'connecting') {
      // Stopped while connecting.
      await this.closeClient(client, built.pid?.() ?? null);
      throw serverUnavailable(this.key, 'it was stopped');
    }
    const reconnect = this.facts.connectedAt !== undefined;
    this.current = client;
    this.facts.connectedAt = new Date();
    this.facts.lastError = undefined;
    this.facts.downSince = undefined;
    this.setState('connected');
    // The 2026-07-28 era has no ping: a modern server is checked by its requests only.
    if (client.getProtocolEra() !== 'modern') this.watchHealth(client);
    else void listenForChanges(client, this.log);
    const version = client.getServerVersion();
    this.log.info({ transport: config.transport, pid: this.pid, serverInfo: version, protocol: client.getNegotiatedProtocolVersion(), era: client.getProtocolEra() }, reconnect ? 'reconnected' : 'connected');
    this.connection.up(reconnect);
  }

  private watchHealth(client: Client): void {
    if (this.options.config.ping === false) return;
    const settings = this.options.resilience.healthCheck;
    this.health = new HealthMonitor(client, settings, {
      alive: () => this.proveAlive(),
      busy: () => this.connection.busy(),
      silent: (consecutive) => {
        if (this.current !== client) return;
        this.setState('degraded');
        this.log.warn({ consecutive }, 'health check got no answer');
        if (consecutive >= settings.failuresBeforeRestart) void this.recycle(`no answer to ${consecutive} health checks`);
      },
    });
    this.health.start();
  }

  /** Restarts a live but unhealthy server (hung, not answering health checks). */
  private async recycle(reason: string): Promise<void> {
    const client = this.current;
    if (!client || this.state === 'stopped') return;
    this.log.warn({ reason: this.options.redact(reason) }, 'restarting the server');
    this.facts.restarts++;
    this.noteFailure(reason);
    this.facts.downSince = new Date();
    this.current = undefined;
    this.health?.stop();
    this.setState('connecting');
    await this.closeClient(client, this.pid);
    this.start().catch(() => undefined);
  }

  /** The connection closed without us asking: the server crashed or exited. Restart it. */
  private onClosed(client: Client): void {
    if (this.current !== client) return;
    this.current = undefined;
    this.health?.stop();
    if (this.state === 'stopped') return;
    const exit = this.exitOf?.();
    this.noteFailure(`${exit ? `the server ${exit}` : 'connection closed'}${stderrSuffix(this.stderr.lines)}`);
    this.facts.downSince = new Date();
    this.facts.restarts++;
    const lived = Date.now() - (this.facts.connectedAt?.getTime() ?? 0);
    this.retry.attempts = lived >= STABLE_AFTER_MS ? 0 : this.retry.attempts + 1;
    this.connection.closed();
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
    this.facts.lastError = serverNeedsLogin(this.key).message;
  }

  private noteFailure(reason: string): void {
    this.facts.lastError = this.options.redact(reason);
    this.log.warn({ reason: this.facts.lastError }, 'server unavailable');
  }

  private setState(state: ConnectionState): void {
    if (this.state === state) return;
    this.state = state;
    this.connection.stateChanged();
  }

  private closeClient(client: Client, pid: number | null): Promise<void> {
    return closeAndReap(client, pid, this.options.resilience.shutdownGraceMs, this.log);
  }
}
