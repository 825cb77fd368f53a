// Owns the client transport over a stdio server's child that was started before its connection
// existed (prestart.ts): newline-delimited JSON-RPC on the child's stdin and stdout, as the SDK's
// stdio transport speaks it, with the same start, close and error behaviour (a child that failed to
// start or has exited fails start() the way a fresh spawn would fail the handshake). A child whose
// handshake began early (early-handshake.ts) is not sent the connection's `initialize`, nor, when the
// early handshake went that far, its `notifications/initialized` and first `tools/list`: the server's
// answers to the early requests (held until asked for) answer them, under the connection's ids. The
// initializes are the same request: the child was adopted only if they are (claimPrestarted), and
// send() checks again. What the server sent meanwhile reaches the connection after its initialize
// answer, in order. An early tools/list answer that a tools/list_changed notification followed, or
// that the connection asks for more than 10 s after adoption, is not used: its request goes to the server.
import { SdkError, SdkErrorCode, serializeMessage, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/client';
import type { ChildProcess } from 'node:child_process';
import type { PrestartedChild } from './prestart.js';
import { EARLY_INITIALIZE_ID, EARLY_TOOLS_LIST_ID, sameInitializeParams } from './downstream-hello.js';
import { StdioLineBuffer } from './stdio-line-buffer.js';

type Id = string | number;

/** One early request: its answer answers the connection's first request of the same kind. */
class EarlyAnswer {
  /** The connection's request was matched to this one (it is not sent to the server). */
  taken = false;
  /** Dropped (a list change came after it): the connection's request goes to the server. */
  stale = false;
  private answer: JSONRPCMessage | undefined;
  private requestId: Id | undefined;

  constructor(
    private readonly deliver: (message: JSONRPCMessage) => void,
    private readonly delivered: () => void = () => undefined,
  ) {}

  /** The server's answer arrived. */
  answered(message: JSONRPCMessage): void {
    if (this.stale) return;
    this.answer = message;
    this.flush();
  }

  /** The connection sent its request `id`: answered when the server's answer is there. */
  take(id: Id): void {
    this.taken = true;
    this.requestId = id;
    queueMicrotask(() => this.flush());
  }

  private flush(): void {
    const answer = this.answer;
    const id = this.requestId;
    if (!answer || id === undefined) return;
    this.answer = undefined;
    this.requestId = undefined;
    this.deliver({ ...answer, id } as JSONRPCMessage);
    this.delivered();
  }
}

/** The early listing answers the connection's first tools/list only this soon after adoption (a later one asks the server). */
const EARLY_LIST_FOR_MS = 10_000;

/** How long close() waits for the child after ending its stdin, and again after SIGTERM. */
const CLOSE_GRACE_MS = 2000;

export class AdoptedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private child: ChildProcess | undefined;
  private readonly readBuffer: StdioLineBuffer;
  private closed = false;
  /** The early `initialize`, when the child was sent one. */
  private earlyInitialize: EarlyAnswer | undefined;
  /**
   * When the early handshake went as far as `notifications/initialized` and `tools/list`: the
   * listing's answer, until when it may answer the connection's first tools/list, and whether the
   * connection's own `notifications/initialized` was dropped yet (it goes no second time).
   */
  private earlyListing: { list: EarlyAnswer; until: number; initializedDropped: boolean } | undefined;
  /** What the server sent after its early handshake began, held until the connection has its `initialize` answer (order kept). */
  private held: JSONRPCMessage[] | undefined;

  constructor(private readonly adopted: PrestartedChild, options: { maxBufferSize?: number } = {}) {
    this.readBuffer = new StdioLineBuffer({ maxBufferSize: options.maxBufferSize });
    this.child = adopted.child;
    // The child may end before start(): remembered so start() fails instead of waiting forever.
    adopted.child.once('close', () => {
      this.closed = true;
    });
  }

  get pid(): number | null {
    return this.adopted.spawnError ? null : this.child?.pid ?? null;
  }

  get stderr(): NodeJS.ReadableStream | null {
    return this.adopted.child.stderr;
  }

  async start(): Promise<void> {
    const child = this.child;
    if (!child) throw new Error('AdoptedStdioTransport already closed');
    if (this.adopted.spawnError) throw this.adopted.spawnError;
    child.on('error', (error) => this.onerror?.(error));
    child.stdin?.on('error', (error) => this.onerror?.(error));
    child.stdout?.on('error', (error) => this.onerror?.(error));
    const read = (chunk: Buffer) => {
      try {
        this.readBuffer.append(chunk);
        this.deliver();
      } catch (error) {
        this.onerror?.(error as Error);
        this.close().catch(() => undefined);
      }
    };
    // What the server wrote during its early handshake comes first, in order.
    const early = this.adopted.early?.handOver();
    if (early) {
      const forward = (message: JSONRPCMessage) => this.onmessage?.(message);
      this.held = [];
      this.earlyInitialize = new EarlyAnswer(forward, () => {
        const held = this.held ?? [];
        this.held = undefined;
        for (const message of held) this.onmessage?.(message);
      });
      if (early.listed) this.earlyListing = { list: new EarlyAnswer(forward), until: Date.now() + EARLY_LIST_FOR_MS, initializedDropped: false };
      for (const chunk of early.output) read(chunk);
    }
    child.stdout?.on('data', read);
    child.stdout?.resume(); // paused when the early output grew large
    child.once('close', () => {
      this.child = undefined;
      this.onclose?.();
    });
    // Ended before it was adopted: the handshake fails now, as it would have with a child of our own.
    if (this.closed || child.exitCode !== null || child.signalCode !== null) {
      queueMicrotask(() => {
        if (this.child !== child) return;
        this.child = undefined;
        this.onclose?.();
      });
    }
  }

  private deliver(): void {
    for (;;) {
      try {
        const message = this.readBuffer.readMessage();
        if (message === null) return;
        if (this.fromEarlyHandshake(message)) continue;
        // The server spoke after `initialize`; the connection hears it after its answer, as it would have.
        if (this.held) this.held.push(message);
        else this.onmessage?.(message);
      } catch (error) {
        this.onerror?.(error as Error);
      }
    }
  }

  /** Holds the answers to the early requests; true when `message` was one. */
  private fromEarlyHandshake(message: JSONRPCMessage): boolean {
    if ('method' in message) {
      // A changed list makes an early listing not yet asked for stale.
      if (message.method === 'notifications/tools/list_changed' && this.earlyListing && !this.earlyListing.list.taken) this.earlyListing.list.stale = true;
      return false;
    }
    if (!('id' in message)) return false;
    if (message.id === EARLY_INITIALIZE_ID && this.earlyInitialize) this.earlyInitialize.answered(message);
    else if (message.id === EARLY_TOOLS_LIST_ID && this.earlyListing) this.earlyListing.list.answered(message);
    else return false;
    return true;
  }

  /**
   * The connection's first initialize, initialized and tools/list when the early handshake sent them:
   * answered from it ('taken'), or refused when the initialize says otherwise; undefined: send it.
   */
  private toEarlyHandshake(message: JSONRPCMessage): 'taken' | 'refused' | undefined {
    if (!('method' in message)) return undefined;
    const id = 'id' in message ? (message.id as Id) : undefined;
    if (message.method === 'initialize' && id !== undefined && this.earlyInitialize && !this.earlyInitialize.taken) {
      if (!sameInitializeParams(message.params, this.adopted.early?.params)) return 'refused';
      this.earlyInitialize.take(id);
      return 'taken';
    }
    const listing = this.earlyListing;
    if (message.method === 'notifications/initialized' && id === undefined && listing && !listing.initializedDropped) {
      listing.initializedDropped = true;
      return 'taken';
    }
    const params = message.params as { cursor?: unknown } | undefined;
    if (message.method === 'tools/list' && id !== undefined && listing && !listing.list.taken && params?.cursor === undefined) {
      if (listing.list.stale || Date.now() > listing.until) {
        listing.list.taken = true;
        return undefined;
      }
      listing.list.take(id);
      return 'taken';
    }
    return undefined;
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.child?.stdin;
      // As the SDK's stdio transport: errors.ts recognises it and names the server's last error instead.
      if (!stdin || this.closed) return reject(new SdkError(SdkErrorCode.NotConnected, 'Not connected'));
      const early = this.toEarlyHandshake(message);
      if (early === 'refused') return reject(new Error('the server started early was sent another initialize than this connection\'s; it cannot be adopted'));
      if (early === 'taken') return resolve();
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', resolve);
    });
  }

  /** Ends the child's stdin and waits for it to exit (SIGTERM, then SIGKILL, after a grace each); its exit calls onclose. */
  async close(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (child && !this.closed) {
      const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
      const within = (ms: number) => Promise.race([exited.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms).unref())]);
      child.stdin?.end();
      if (!(await within(CLOSE_GRACE_MS))) {
        child.kill('SIGTERM');
        if (!(await within(CLOSE_GRACE_MS))) child.kill('SIGKILL');
      }
    }
    this.readBuffer.clear();
  }
}
