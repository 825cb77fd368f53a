// The gateway's stdio line reader (src/servers/stdio-line-buffer.ts) against the SDK's ReadBuffer on
// the same bytes: the same messages in the same order (split chunks, CRLF, a stray non-JSON line),
// the same refusal of JSON that is not JSON-RPC and of a buffer over its limit. Only answers to relay
// lane ids skip the SDK's schema run, and an ill-formed one does not.
import { describe, expect, it } from 'vitest';
import { ReadBuffer } from '@modelcontextprotocol/client';
import { StdioLineBuffer } from '../../src/servers/stdio-line-buffer.js';

const LANE_ID = 2 ** 40 + 7;

/** Every message both readers give for `chunks`, or the error each throws. */
function readAll(reader: { append(chunk: Buffer): void; readMessage(): unknown }, chunks: string[]): unknown[] {
  const out: unknown[] = [];
  for (const chunk of chunks) {
    reader.append(Buffer.from(chunk));
    for (;;) {
      try {
        const message = reader.readMessage();
        if (message === null) break;
        out.push(message);
      } catch (error) {
        out.push({ threw: (error as Error).name });
      }
    }
  }
  return out;
}

describe('stdio line buffer', () => {
  const lines = [
    JSON.stringify({ jsonrpc: '2.0', id: LANE_ID, result: { content: [{ type: 'text', text: 'échoed' }], extra: { kept: true } } }),
    'a log line a server printed on stdout',
    JSON.stringify({ jsonrpc: '2.0', id: LANE_ID + 1, error: { code: -32000, message: 'failed', data: { why: 1 } } }),
    JSON.stringify({ jsonrpc: '2.0', id: 3, result: { tools: [] } }),
    JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x' } }),
    JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'roots/list' }),
  ];

  it('gives what the SDK reader gives, however the bytes are split, with CRLF too', () => {
    const text = `${lines.join('\n')}\r\n${lines[0]}\n`;
    for (const size of [1, 7, 64, text.length]) {
      const chunks: string[] = [];
      for (let at = 0; at < text.length; at += size) chunks.push(text.slice(at, at + size));
      const ours = readAll(new StdioLineBuffer(), chunks);
      expect(ours).toEqual(readAll(new ReadBuffer(), chunks));
      expect(ours).toHaveLength(6); // the log line is skipped by both
    }
  });

  it('delivers a well-formed lane answer as parsed, and sends an ill-formed one through the SDK schema', () => {
    const reader = new StdioLineBuffer();
    reader.append(Buffer.from(`${lines[0]}\n`));
    expect(reader.readMessage()).toEqual(JSON.parse(lines[0]!));
    const illFormed = [
      { jsonrpc: '2.0', id: LANE_ID, error: { code: 'x', message: 'code is not a number' } },
      { jsonrpc: '2.0', id: LANE_ID, result: 'not an object' },
      { jsonrpc: '1.0', id: LANE_ID, result: {} },
    ].map((m) => `${JSON.stringify(m)}\n`);
    expect(readAll(new StdioLineBuffer(), illFormed)).toEqual(readAll(new ReadBuffer(), illFormed));
    expect(readAll(new StdioLineBuffer(), illFormed).every((m) => (m as { threw?: string }).threw !== undefined)).toBe(true);
  });

  it('refuses a buffer over its limit, as the SDK reader does', () => {
    const ours = new StdioLineBuffer({ maxBufferSize: 16 });
    expect(() => ours.append(Buffer.from('x'.repeat(17)))).toThrow('ReadBuffer exceeded maximum size of 16 bytes');
    ours.append(Buffer.from('{"jsonrpc":"2.0"')); // cleared by the refusal: room again
    expect(ours.readMessage()).toBeNull();
  });
});
