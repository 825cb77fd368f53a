// Owns the stdio face's wire: newline-delimited JSON-RPC on stdin/stdout, where every line gets an
// answer if it deserves one: invalid JSON gets -32700, a JSON value that is not a JSON-RPC message
// gets -32600 (with its id when it has a usable one), and a line over the size limit is dropped
// with -32600 instead of being buffered without bound. Valid messages go to the SDK server, unless
// the relay lane takes them first (intercept).
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/server';
import { LineSplitter } from '../servers/line-splitter.js';
import { answerableId } from './request-id.js';
import { takePeekedInput } from './stdin-peek.js';

/** Checks a parsed line is a JSON-RPC message (throws when not): the SDK's parser, or a lighter check. */
export type MessageCheck = (value: unknown) => JSONRPCMessage;

type Id = string | number | null;

export class CheckedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** Sees each parsed line first; true: it took the line (the relay lane, stdio-fast-calls.ts). */
  intercept?: (value: unknown) => boolean;
  private readonly lines: LineSplitter;
  private closed = false;

  constructor(
    maxLineBytes: number,
    private readonly check: MessageCheck,
    private readonly stdin: NodeJS.ReadableStream = process.stdin,
    private readonly stdout: NodeJS.WritableStream = process.stdout,
  ) {
    this.lines = new LineSplitter(maxLineBytes, () =>
      this.reply(null, -32600, `Invalid Request: a message may be at most ${maxLineBytes} bytes (switchboard.limits.maxBodyBytes); it was dropped`),
    );
  }

  async start(): Promise<void> {
    // What serve's early look at stdin read (stdin-peek.ts) comes first; the stream waits paused.
    const early = takePeekedInput(this.stdin);
    this.stdin.on('data', this.onData);
    this.stdin.on('end', this.onEnd);
    this.stdin.on('close', this.onEnd);
    this.stdin.on('error', this.onStreamError);
    this.stdout.on('error', this.onStreamError);
    if (!early) return;
    // On a later turn, as data would come: whoever connected this transport has set its handlers.
    setImmediate(() => {
      if (this.closed) return;
      if (early.bytes.length) this.onData(early.bytes);
      if (early.ended) void this.close();
      else this.stdin.resume();
    });
  }

  private readonly onStreamError = (error: Error) => this.onerror?.(error);
  private readonly onEnd = () => void this.close();

  private readonly onData = (chunk: Buffer) => this.lines.push(chunk, this.onLine);
  private readonly onLine = (line: string): void => this.handleLine(line);

  private handleLine(line: string): void {
    if (!line.trim()) return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      return this.reply(null, -32700, 'Parse error: the line is not valid JSON');
    }
    if (this.intercept?.(value)) return;
    let message: JSONRPCMessage;
    try {
      message = this.check(value);
    } catch {
      return this.reply(idOf(value), -32600, 'Invalid Request: not a JSON-RPC 2.0 message (expected "jsonrpc": "2.0" and a "method" with an "id", or a result/error for an id)');
    }
    this.onmessage?.(message);
  }

  private reply(id: Id, code: number, message: string): void {
    void this.send({ jsonrpc: '2.0', id, error: { code, message } } as unknown as JSONRPCMessage);
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      if (this.stdout.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.stdout.once('drain', () => resolve());
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stdin.off('data', this.onData);
    this.stdin.off('end', this.onEnd);
    this.stdin.off('close', this.onEnd);
    this.stdin.off('error', this.onStreamError);
    this.stdout.off('error', this.onStreamError);
    this.onclose?.();
  }
}

/** The id of a malformed message, to answer it by: a string or any finite number, as the client sent it. */
function idOf(value: unknown): Id {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const id = (value as { id?: unknown }).id;
  return answerableId(id);
}
