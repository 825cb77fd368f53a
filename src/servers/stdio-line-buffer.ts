// Owns reading a stdio server's output into JSON-RPC messages, as the SDK's ReadBuffer does
// (newline-delimited, a trailing CR dropped, a line that is not JSON skipped, a buffer over its limit
// refused), with one difference: an answer to one of the relay lane's requests (raw-requests.ts)
// whose shape is already that of a JSON-RPC response is delivered as parsed, without the SDK's schema
// run over the envelope and a copy of the result. Every other message gets the SDK's own parse, and
// fails it the same way. Used by the gateway's stdio transports (transport.ts, adopted-transport.ts).
import { STDIO_DEFAULT_MAX_BUFFER_SIZE, parseJSONRPCMessage, type JSONRPCMessage } from '@modelcontextprotocol/client';
import { isLaneId } from './raw-requests.js';

/** An answer to a lane request shaped as JSON-RPC requires: a result object, or an error with an integer code and a message. */
function isLaneAnswer(value: unknown): value is JSONRPCMessage {
  if (typeof value !== 'object' || value === null) return false;
  const message = value as { jsonrpc?: unknown; id?: unknown; method?: unknown; result?: unknown; error?: { code?: unknown; message?: unknown } };
  if (message.jsonrpc !== '2.0' || !isLaneId(message.id) || 'method' in message) return false;
  const { result, error } = message;
  if (error === undefined) return typeof result === 'object' && result !== null && !Array.isArray(result);
  return result === undefined && typeof error === 'object' && error !== null && Number.isSafeInteger(error.code) && typeof error.message === 'string';
}

export class StdioLineBuffer {
  private buffer: Buffer | undefined;
  private readonly maxBufferSize: number;

  constructor(options: { maxBufferSize?: number } = {}) {
    this.maxBufferSize = options.maxBufferSize ?? STDIO_DEFAULT_MAX_BUFFER_SIZE;
  }

  append(chunk: Buffer): void {
    if ((this.buffer?.length ?? 0) + chunk.length > this.maxBufferSize) {
      this.clear();
      throw new Error(`ReadBuffer exceeded maximum size of ${this.maxBufferSize} bytes`);
    }
    this.buffer = this.buffer ? Buffer.concat([this.buffer, chunk]) : chunk;
  }

  /** The next whole message, or null until a whole line is buffered. Throws for JSON that is not JSON-RPC. */
  readMessage(): JSONRPCMessage | null {
    while (this.buffer) {
      const end = this.buffer.indexOf(10); // '\n'
      if (end === -1) return null;
      const cr = end > 0 && this.buffer[end - 1] === 13 ? 1 : 0;
      const line = this.buffer.toString('utf8', 0, end - cr);
      this.buffer = end + 1 === this.buffer.length ? undefined : this.buffer.subarray(end + 1);
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        continue; // not JSON (a server's stray log line): skipped, as the SDK does
      }
      return isLaneAnswer(value) ? value : parseJSONRPCMessage(value);
    }
    return null;
  }

  clear(): void {
    this.buffer = undefined;
  }
}
