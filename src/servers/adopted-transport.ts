// Owns the client transport over a stdio server's child that was started before its connection
// existed (prestart.ts): newline-delimited JSON-RPC on the child's stdin and stdout, as the SDK's
// stdio transport speaks it, with the same start, close and error behaviour (a child that failed to
// start or has exited fails start() the way a fresh spawn would fail the handshake). A child that was
// sent its `initialize` early (prestart.ts) is not sent the connection's: the server's answer to the
// early one (held until asked for) answers it, under the connection's id. The two are the same
// request: the child was adopted only if they are (claimPrestarted), and send() checks again.
import { SdkError, SdkErrorCode, serializeMessage, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/client';
import type { ChildProcess } from 'node:child_process';
import { EARLY_INITIALIZE_ID, type PrestartedChild } from './prestart.js';
import { sameInitializeParams, type DownstreamInitializeParams } from './downstream-hello.js';
import { StdioLineBuffer } from './stdio-line-buffer.js';

/** How long close() waits for the child after ending its stdin, and again after SIGTERM. */
const CLOSE_GRACE_MS = 2000;

export class AdoptedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private child: ChildProcess | undefined;
  private readonly readBuffer: StdioLineBuffer;
  private closed = false;
  /** The `initialize` the child was sent early, if it was. */
  private readonly early: DownstreamInitializeParams | undefined;
  /** The connection's `initialize` was answered by the early one (or is waiting for its answer). */
  private initializeTaken = false;
  /** The server's answer to the early `initialize`, until the connection asks (undefined: none yet). */
  private earlyAnswer: JSONRPCMessage | undefined;
  /** The id of the connection's `initialize`, while it waits for the early answer. */
  private initializeId: string | number | undefined;

  constructor(private readonly adopted: PrestartedChild, options: { maxBufferSize?: number } = {}) {
    this.readBuffer = new StdioLineBuffer({ maxBufferSize: options.maxBufferSize });
    this.child = adopted.child;
    this.early = adopted.earlyInitialize;
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
    child.stdout?.on('data', (chunk: Buffer) => {
      try {
        this.readBuffer.append(chunk);
        this.deliver();
      } catch (error) {
        this.onerror?.(error as Error);
        this.close().catch(() => undefined);
      }
    });
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
        if (this.early && 'id' in message && message.id === EARLY_INITIALIZE_ID && !('method' in message)) {
          this.earlyAnswer = message;
          this.answerInitialize();
          continue;
        }
        this.onmessage?.(message);
      } catch (error) {
        this.onerror?.(error as Error);
      }
    }
  }

  /** Delivers the early answer as the answer to the connection's `initialize`, once both are there. */
  private answerInitialize(): void {
    const answer = this.earlyAnswer;
    const id = this.initializeId;
    if (!answer || id === undefined) return;
    this.earlyAnswer = undefined;
    this.initializeId = undefined;
    this.onmessage?.({ ...answer, id } as JSONRPCMessage);
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.child?.stdin;
      // As the SDK's stdio transport: errors.ts recognises it and names the server's last error instead.
      if (!stdin || this.closed) return reject(new SdkError(SdkErrorCode.NotConnected, 'Not connected'));
      if (this.early && !this.initializeTaken && 'method' in message && message.method === 'initialize' && 'id' in message) {
        // Only the first: a later initialize goes to the server as any request does.
        this.initializeTaken = true;
        if (!sameInitializeParams(message.params, this.early)) return reject(new Error('the server started early was sent another initialize than this connection\'s; it cannot be adopted'));
        this.initializeId = message.id;
        queueMicrotask(() => this.answerInitialize());
        return resolve();
      }
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
