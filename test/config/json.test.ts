import { describe, it, expect } from 'vitest';
import { JsonSyntaxError, parseJsonc } from '../../src/config/index.js';

describe('parseJsonc', () => {
  it('parses plain JSON like JSON.parse', () => {
    const text = '{"a": [1, -2.5e3, "x\\n\\u00e9", true, false, null], "b": {}}';
    expect(parseJsonc(text)).toEqual(JSON.parse(text));
  });

  it('accepts comments, trailing commas and a BOM', () => {
    const text = '\ufeff// top\n{ /* c */ "a": [1, 2,], // end\n "b": "// not a comment", }';
    expect(parseJsonc(text)).toEqual({ a: [1, 2], b: '// not a comment' });
  });

  it('keeps "__proto__" as an ordinary key', () => {
    const value = parseJsonc('{"__proto__": {"polluted": true}}') as Record<string, unknown>;
    expect(Object.keys(value)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it.each([
    ['{"a": 1,\n  "b" 2}', 2, 7, "expected ':'"],
    ['{\n  "a": }', 2, 8, 'expected a value'],
    ['{"a": "x', 1, 7, 'unterminated string'],
    ['{"a": 1} x', 1, 10, 'after the end'],
    ['  \n ', 2, 2, 'empty'],
    ['{"a": [1 2]}', 1, 10, "expected ',' or ']'"],
    ['/* never closed', 1, 1, 'unterminated /* comment'],
  ])('reports %j at line %i, column %i', (text, line, column, problem) => {
    let caught: unknown;
    try {
      parseJsonc(text);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(JsonSyntaxError);
    const err = caught as JsonSyntaxError;
    expect([err.line, err.column]).toEqual([line, column]);
    expect(err.message).toContain(problem);
  });
});
