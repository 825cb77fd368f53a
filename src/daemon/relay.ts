// Owns the shim's relay: every JSON-RPC message of the stdio client goes to the daemon's HTTP face
// and every message of the daemon back to the client, unchanged (ids, progress tokens, _meta,
// cancellation, server requests such as sampling all pass as they are; the daemon gives a client
// that declares sampling, elicitation or roots its own downstream connections). When the daemon
// goes away the calls in flight fail with a clear error, the daemon is started again, the client's
// initialize is replayed (its answer kept from the client, who already has one), and the client
// hears list_changed so it re-reads what it sees. Messages that arrive meanwhile wait.
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/server';
import { HttpLink, LinkError } from './http-link.js';

type Id = string | number;
type Message = JSONRPCMessage & { id?: Id; method?: string; params?: Record<string, unknown>; result?: Record<string, unknown>; error?: unknown };

/** Where the daemon is now (asked again after it went away: it may have been started anew). */
export interface DaemonEndpoint {
  url: URL;
  token: string;
}

/** What the relay logs through (a pino logger fits; the shim uses a lighter one). */
export interface RelayLog {
  debug(fields: Record<string, unknown>, message: string): void;
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
}

export interface RelayOptions {
  /** The daemon to use now; starts it when it is not running. */
  connect(): Promise<DaemonEndpoint>;
  /** True when the daemon answers (asked when its stream reports an error). */
  alive(): Promise<boolean>;
  log: RelayLog;
}

export const DAEMON_LOST = -32000;
const REINIT_ID = 'switchboard-shim-reinitialize';

export class Relay {
  private downstream: HttpLink | undefined;
  private endpoint: DaemonEndpoint | undefined;
  /** Requests of the client waiting for the daemon's answer: failed if the daemon goes away. */
  private readonly pending = new Set<Id>();
  private initialize: Message | undefined;
  private initialized = false;
  /** Set while (re)connecting: the client's messages wait for it. */
  private ready: Promise<void> = Promise.resolve();
  private recovering = false;
  /** The daemon's stream broke and it did not answer: reconnect before the client's next message. */
  private lost = false;
  private closed = false;
  private reinitAnswer: ((message: Message) => void) | undefined;

  constructor(
    private readonly upstream: Transport,
    private readonly options: RelayOptions,
  ) {}

  async start(): Promise<void> {
    this.upstream.onmessage = (message) => void this.fromClient(message as Message);
    this.upstream.onclose = () => void this.close();
    this.upstream.onerror = (error) => this.options.log.debug({ err: error.message }, 'client stream error');
    this.ready = this.open();
    await this.upstream.start();
    await this.ready;
  }

  /** Ends the daemon session and the relay (the client closed stdin). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const downstream = this.downstream;
    this.downstream = undefined;
    if (downstream) await downstream.close().catch(() => undefined);
    await this.upstream.close().catch(() => undefined);
    this.onclose?.();
  }

  onclose?: () => void;

  private async open(): Promise<void> {
    const endpoint = await this.options.connect();
    this.endpoint = endpoint;
    const link = new HttpLink(endpoint.url, endpoint.token);
    link.onmessage = (message) => this.fromDaemon(link, message as Message);
    link.onerror = (error) => void this.onDaemonError(link, error);
    this.downstream = link;
  }

  private async fromClient(message: Message): Promise<void> {
    await this.ready;
    if (this.closed) return;
    if (message.method === 'initialize' && message.id !== undefined) this.initialize = message;
    if (message.method === 'notifications/initialized') this.initialized = true;
    const isRequest = message.method !== undefined && message.id !== undefined;
    const transport = this.downstream!;
    if (this.lost) return this.recover(transport, new Error('the daemon went away'), message);
    if (isRequest) this.pending.add(message.id!);
    try {
      await transport.send(message as Record<string, unknown>);
    } catch (error) {
      if (this.closed) return;
      const sessionGone = error instanceof LinkError && error.status === 404;
      if (!sessionGone && (await this.options.alive())) {
        // The daemon is there and refused this message: the client gets the reason.
        if (isRequest) this.fail(message.id!, `Switchboard daemon refused the request: ${(error as Error).message}`);
        return;
      }
      // The daemon went away, or ended our session (idle too long, restarted): this message never
      // reached it, so it is sent again once the session is open anew, not failed.
      if (isRequest) this.pending.delete(message.id!);
      await this.recover(transport, error as Error, message);
    }
  }

  private fromDaemon(transport: HttpLink, message: Message): void {
    if (transport !== this.downstream && !(this.recovering && message.id === REINIT_ID)) return; // an old connection's late message
    if (message.id === REINIT_ID && message.method === undefined) {
      this.reinitAnswer?.(message);
      return;
    }
    if (message.method === undefined && message.id !== undefined) {
      this.pending.delete(message.id);
      const version = message.result?.protocolVersion;
      if (typeof version === 'string' && this.initialize?.id === message.id) transport.protocolVersion = version;
    }
    void this.upstream.send(message).catch((error: Error) => this.options.log.debug({ err: error.message }, 'could not write to the client'));
  }

  private async onDaemonError(transport: HttpLink, error: Error): Promise<void> {
    if (this.closed || transport !== this.downstream || this.recovering) return;
    this.options.log.debug({ err: error.message }, 'daemon stream error');
    if (await this.options.alive()) return; // a stream hiccup; the daemon is there
    // Gone (stopped or killed): what was in flight will get no answer, so it fails now. The daemon
    // is started again only when the client next sends something: "switchboard daemon stop" stops it.
    this.failPending();
    this.lost = true;
  }

  private failPending(): void {
    for (const id of [...this.pending]) {
      this.fail(id, 'The Switchboard daemon went away while this request ran (it may or may not have reached the server); the shim is reconnecting: try again.');
    }
  }

  /** The daemon went away: fail what was in flight, start it again, replay initialize, announce changes. */
  private async recover(failed: HttpLink, error: Error, resend?: Message): Promise<void> {
    if (this.recovering) {
      await this.ready;
      if (resend) await this.fromClient(resend);
      return;
    }
    if (failed !== this.downstream) return;
    this.recovering = true;
    this.options.log.warn({ err: error.message }, 'lost the Switchboard daemon session; failing the calls in flight and reconnecting');
    this.failPending();
    this.lost = false;
    let done!: () => void;
    this.ready = new Promise<void>((resolve) => (done = resolve));
    try {
      this.downstream = undefined;
      await failed.close(false).catch(() => undefined);
      for (let attempt = 1; !this.closed; attempt++) {
        try {
          await this.open();
          if (this.initialize) await this.replayInitialize();
          break;
        } catch (reconnectError) {
          this.options.log.warn({ err: (reconnectError as Error).message, attempt }, 'reconnecting to the Switchboard daemon failed; retrying');
          await new Promise((resolve) => setTimeout(resolve, Math.min(5000, 250 * attempt)));
        }
      }
    } finally {
      this.recovering = false;
      done();
    }
    if (this.closed) return;
    this.options.log.info({ url: this.endpoint?.url.href }, 'reconnected to the Switchboard daemon');
    for (const method of ['notifications/tools/list_changed', 'notifications/prompts/list_changed', 'notifications/resources/list_changed']) {
      await this.upstream.send({ jsonrpc: '2.0', method } as JSONRPCMessage).catch(() => undefined);
    }
    if (resend) await this.fromClient(resend);
  }

  private async replayInitialize(): Promise<void> {
    const transport = this.downstream!;
    const answered = new Promise<Message>((resolve, reject) => {
      this.reinitAnswer = resolve;
      setTimeout(() => reject(new Error('the restarted daemon did not answer initialize within 30 s')), 30_000).unref();
    });
    await transport.send({ ...this.initialize!, id: REINIT_ID });
    const answer = await answered;
    this.reinitAnswer = undefined;
    if (answer.error !== undefined) throw new Error(`the restarted daemon refused initialize: ${JSON.stringify(answer.error)}`);
    const version = answer.result?.protocolVersion;
    if (typeof version === 'string') transport.protocolVersion = version;
    if (this.initialized) await transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  }

  private fail(id: Id, message: string): void {
    if (!this.pending.delete(id)) return;
    void this.upstream.send({ jsonrpc: '2.0', id, error: { code: DAEMON_LOST, message } } as JSONRPCMessage).catch(() => undefined);
  }
}
