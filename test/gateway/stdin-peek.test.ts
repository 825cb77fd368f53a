// The early look at the stdio client's first line (src/gateway/stdin-peek.ts) and the face taking over
// from it (stdio-transport.ts): the first line is seen once, reading stops there, and the face gets
// every byte in order (what the look read, what came meanwhile, what comes later), nothing twice; an
// input that ends before the face starts still closes it.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { peekFirstLine, takePeekedInput } from '../../src/gateway/stdin-peek.js';
import { CheckedStdioTransport } from '../../src/gateway/stdio-transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';

const line = (id: number) => `${JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' })}\n`;
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A face on `input` (lines of at most `maxLineBytes`) that records the ids it is handed. */
function face(input: PassThrough, maxLineBytes = 1024 * 1024) {
  const transport = new CheckedStdioTransport(maxLineBytes, (value) => value as JSONRPCMessage, input, new PassThrough());
  const ids: unknown[] = [];
  let closed = false;
  transport.onmessage = (message) => void ids.push((message as { id: unknown }).id);
  transport.onclose = () => {
    closed = true;
  };
  return { transport, ids, closed: () => closed };
}

describe('the early look at stdin', () => {
  it('sees the first line once, stops reading there, and the face gets every line in order', async () => {
    const input = new PassThrough();
    const seen: string[] = [];
    peekFirstLine(input, (first) => seen.push(first));
    // The first line arrives in two pieces, with the start of the second behind it.
    input.write(line(1).slice(0, 10));
    await turn();
    expect(seen).toEqual([]);
    input.write(line(1).slice(10) + line(2).slice(0, 5));
    await turn();
    expect(seen).toEqual([line(1).trimEnd()]);
    expect(input.isPaused()).toBe(true);
    input.write(line(2).slice(5) + line(3)); // while the gateway still loads: left in the stream
    await turn();
    expect(seen).toHaveLength(1);

    const { transport, ids } = face(input);
    await transport.start();
    input.write(line(4));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(ids).toEqual([1, 2, 3, 4]);
    expect(takePeekedInput(input)).toBeUndefined(); // taken once
    await transport.close();
  });

  it('hands a face that starts before any whole line what came so far', async () => {
    const input = new PassThrough();
    const seen: string[] = [];
    peekFirstLine(input, (first) => seen.push(first));
    input.write(line(7).slice(0, 8));
    await turn();
    const { transport, ids } = face(input);
    await transport.start();
    input.write(line(7).slice(8) + line(8));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(ids).toEqual([7, 8]);
    expect(seen).toEqual([]); // the face read the first line, not the look
    await transport.close();
  });

  it('closes the face when the input ended before it started', async () => {
    const input = new PassThrough();
    peekFirstLine(input, () => undefined);
    input.end(line(5).slice(0, 12));
    await turn();
    const { transport, closed } = face(input);
    await transport.start();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(closed()).toBe(true);
  });

  it('closes the face when the input ended right behind the first line (a client that writes initialize and closes)', async () => {
    // The end comes in the same chunk as the line: the stream says so once, before the face listens.
    // (An end a turn later waits in the paused stream and reaches the face; that case always worked.)
    for (const send of [(input: PassThrough) => input.end(line(5)), (input: PassThrough) => (input.write(line(5)), setImmediate(() => input.end()))]) {
      const input = new PassThrough();
      const seen: string[] = [];
      peekFirstLine(input, (first) => seen.push(first));
      send(input);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(seen).toEqual([line(5).trimEnd()]);
      const { transport, ids, closed } = face(input);
      await transport.start();
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(ids).toEqual([5]); // the line is still handed to the face, then it closes
      expect(closed()).toBe(true);
    }
  });

  it('gives up on a first line over 1 MB, however it comes, and the face gets all of it', async () => {
    const long = `${JSON.stringify({ jsonrpc: '2.0', id: 11, method: 'ping', params: { pad: 'x'.repeat(1_100_000) } })}\n`;
    // Past the limit before its end; whole in one chunk; and begun under the limit, ended over it.
    for (const pieces of [[long.slice(0, 1_050_000), long.slice(1_050_000) + line(12)], [long + line(12)], [long.slice(0, 900_000), long.slice(900_000) + line(12)]]) {
      const input = new PassThrough();
      const seen: string[] = [];
      peekFirstLine(input, (first) => seen.push(first));
      let written = 0;
      for (const piece of pieces) {
        input.write(piece);
        written += piece.length; // ASCII: characters are bytes
        await turn();
        expect(input.isPaused()).toBe(written > 1024 * 1024); // reading stops once past the limit
      }
      expect(seen).toEqual([]); // neither the long line nor the one after it
      const { transport, ids } = face(input, 2 * 1024 * 1024);
      await transport.start();
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(ids).toEqual([11, 12]);
      await transport.close();
    }
  });

  it('treats an input that failed before the face started as ended', async () => {
    const input = new PassThrough();
    peekFirstLine(input, () => undefined);
    input.emit('error', new Error('EIO'));
    const { transport, closed } = face(input);
    await transport.start();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(closed()).toBe(true);
  });

  it('leaves a stream nobody looked at to the face as before', async () => {
    const input = new PassThrough();
    const { transport, ids } = face(input);
    await transport.start();
    input.write(line(9));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(ids).toEqual([9]);
    await transport.close();
  });
});
