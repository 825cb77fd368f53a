// Owns parsing config text: JSON plus comments and trailing commas (JSONC, as VS Code writes mcp.json),
// with errors that carry a line and column on every Node version.

export class JsonSyntaxError extends Error {
  readonly offset: number;
  readonly line: number;
  readonly column: number;

  constructor(problem: string, text: string, offset: number) {
    const { line, column } = lineAndColumn(text, offset);
    super(`${problem} at line ${line}, column ${column}`);
    this.name = 'JsonSyntaxError';
    this.offset = offset;
    this.line = line;
    this.column = column;
  }
}

/** 1-based line and column of a character offset. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/** Deepest nesting of objects and arrays a config file may have. */
export const MAX_DEPTH = 100;

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const LITERALS: ReadonlyArray<[string, unknown]> = [['true', true], ['false', false], ['null', null]];

/** Parses JSON text that may contain `//` and `/* *\/` comments and trailing commas. */
export function parseJsonc(text: string): unknown {
  const src = text.charCodeAt(0) === 0xfeff ? ' ' + text.slice(1) : text; // keep offsets stable
  let pos = 0;

  const fail = (problem: string, at = pos): never => {
    throw new JsonSyntaxError(problem, src, at);
  };
  const found = (): string => (pos >= src.length ? 'end of input' : JSON.stringify(src[pos]));

  const skip = (): void => {
    while (pos < src.length) {
      const c = src[pos];
      if (c === ' ' || c === '\t' || c === '\n' || c === '\r') pos++;
      else if (c === '/' && src[pos + 1] === '/') {
        const end = src.indexOf('\n', pos);
        pos = end === -1 ? src.length : end + 1;
      } else if (c === '/' && src[pos + 1] === '*') {
        const end = src.indexOf('*/', pos + 2);
        if (end === -1) fail('unterminated /* comment');
        pos = end + 2;
      } else return;
    }
  };

  const string = (): string => {
    const start = pos;
    pos++; // opening quote
    while (pos < src.length) {
      const code = src.charCodeAt(pos);
      if (code === 0x22) {
        pos++;
        try {
          return JSON.parse(src.slice(start, pos)) as string;
        } catch {
          return fail('invalid escape sequence in string', start);
        }
      }
      if (code === 0x5c) pos += 2;
      else if (code < 0x20) fail('line break or control character inside a string (use \\n)');
      else pos++;
    }
    return fail('unterminated string', start);
  };

  const value = (): unknown => {
    skip();
    const c = src[pos];
    if (c === '{') return object();
    if (c === '[') return array();
    if (c === '"') return string();
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) {
      NUMBER.lastIndex = pos;
      const m = NUMBER.exec(src);
      if (!m) fail('invalid number');
      pos += m![0].length;
      return Number(m![0]);
    }
    for (const [word, result] of LITERALS) {
      if (src.startsWith(word, pos)) {
        pos += word.length;
        return result;
      }
    }
    return fail(`unexpected ${found()}, expected a value`);
  };

  // Nesting is bounded: this parser recurses, and a config file has no use for deep values.
  let depth = 0;
  const enter = () => {
    if (++depth > MAX_DEPTH) fail(`nested deeper than ${MAX_DEPTH} levels`);
  };

  const object = (): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    enter();
    pos++;
    skip();
    if (src[pos] === '}') {
      pos++;
      depth--;
      return out;
    }
    for (;;) {
      skip();
      if (src[pos] !== '"') fail(`unexpected ${found()}, expected a property name in double quotes`);
      const key = string();
      skip();
      if (src[pos] !== ':') fail(`unexpected ${found()}, expected ':' after property name`);
      pos++;
      // defineProperty so a "__proto__" key stays a plain property, as with JSON.parse
      Object.defineProperty(out, key, { value: value(), enumerable: true, writable: true, configurable: true });
      skip();
      if (src[pos] === ',') {
        pos++;
        skip();
        if (src[pos] === '}') {
          pos++;
          depth--;
          return out;
        }
      } else if (src[pos] === '}') {
        pos++;
        depth--;
        return out;
      } else fail(`unexpected ${found()}, expected ',' or '}'`);
    }
  };

  const array = (): unknown[] => {
    const out: unknown[] = [];
    enter();
    pos++;
    skip();
    if (src[pos] === ']') {
      pos++;
      depth--;
      return out;
    }
    for (;;) {
      out.push(value());
      skip();
      if (src[pos] === ',') {
        pos++;
        skip();
        if (src[pos] === ']') {
          pos++;
          depth--;
          return out;
        }
      } else if (src[pos] === ']') {
        pos++;
        depth--;
        return out;
      } else fail(`unexpected ${found()}, expected ',' or ']'`);
    }
  };

  skip();
  if (pos >= src.length) fail('the file is empty');
  const result = value();
  skip();
  if (pos < src.length) fail(`unexpected ${found()} after the end of the JSON value`);
  return result;
}
