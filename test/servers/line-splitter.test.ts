// The stdio line reader shared by the face and serve's early start (src/servers/line-splitter.ts):
// lines whole or split across chunks, CRLF, multi-byte characters cut between chunks, an over-long
// line dropped whole with the next one read as usual, and stopping at a line.
import { describe, expect, it } from 'vitest';
import { LineSplitter } from '../../src/servers/line-splitter.js';

function read(chunks: Array<string | Buffer>, maxLineBytes?: number): { lines: string[]; tooLong: number; splitter: LineSplitter } {
  const lines: string[] = [];
  let tooLong = 0;
  const splitter = new LineSplitter(maxLineBytes, () => tooLong++);
  for (const chunk of chunks) splitter.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk), (line) => void lines.push(line));
  return { lines, tooLong, splitter };
}

describe('LineSplitter', () => {
  it('gives each whole line once, in order, and keeps the unfinished rest for the next chunk', () => {
    const { lines, splitter } = read(['{"a":1}\n{"b"', ':2}\n\n{"c"', ':3}']);
    expect(lines).toEqual(['{"a":1}', '{"b":2}', '']);
    expect(splitter.pendingBytes).toBe(Buffer.byteLength('{"c":3}'));
  });

  it('drops the carriage return of CRLF lines, whole or split, and nothing else', () => {
    expect(read(['one\r\ntw', 'o\r', '\nthree\r\r\n']).lines).toEqual(['one', 'two', 'three\r']);
  });

  it('decodes a character whose bytes two chunks cut apart', () => {
    const bytes = Buffer.from('{"text":"héllo ✓"}\n');
    const cut = bytes.indexOf(0xa9); // inside é (0xc3 0xa9)
    expect(read([bytes.subarray(0, cut), bytes.subarray(cut)]).lines).toEqual(['{"text":"héllo ✓"}']);
  });

  it('drops a line over the limit whole, says so once, and reads the next line as usual', () => {
    const long = 'x'.repeat(40);
    expect(read([`ok\n${long.slice(0, 25)}`, `${long.slice(25)}\nnext\n`], 16)).toMatchObject({ lines: ['ok', 'next'], tooLong: 1 });
    expect(read([`${long}\nnext\n`], 16)).toMatchObject({ lines: ['next'], tooLong: 1 });
    expect(read(['x'.repeat(16), '\n'], 16)).toMatchObject({ lines: ['x'.repeat(16)], tooLong: 0 });
  });

  it('counts a carriage return in the limit, the same whether the line comes whole or in pieces', () => {
    const fits = `${'x'.repeat(15)}\r\n`; // 16 bytes before the newline
    const over = `${'x'.repeat(16)}\r\n`; // 17
    expect(read([fits + over + 'ok\n'], 16)).toMatchObject({ lines: ['x'.repeat(15), 'ok'], tooLong: 1 });
    expect(read([fits.slice(0, 9), fits.slice(9) + over.slice(0, 9), over.slice(9) + 'ok\n'], 16)).toMatchObject({ lines: ['x'.repeat(15), 'ok'], tooLong: 1 });
  });

  it('stops at the line its reader refuses, keeping nothing after it', () => {
    const seen: string[] = [];
    const splitter = new LineSplitter();
    splitter.push(Buffer.from('first\nsecond\nthi'), (line) => {
      seen.push(line);
      return false;
    });
    expect(seen).toEqual(['first']);
    expect(splitter.pendingBytes).toBe(0);
    // A line that ends in a later chunk stops the reading there too.
    const later = new LineSplitter();
    const got: string[] = [];
    const take = (line: string) => {
      got.push(line);
      return false;
    };
    later.push(Buffer.from('{"split":'), take);
    later.push(Buffer.from('true}\nnext\n'), take);
    expect(got).toEqual(['{"split":true}']);
    expect(later.pendingBytes).toBe(0);
  });
});
