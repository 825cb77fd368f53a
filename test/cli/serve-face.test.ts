// Which face a `serve` command line serves, read before commander (src/cli/serve-face.ts): the young
// generation's cap, the code cache and serve's early start all go by it.
import { describe, expect, it } from 'vitest';
import { faceOf, serveFace, serveOptions } from '../../src/cli/serve-face.js';

const argv = (...args: string[]) => ['node', 'switchboard', ...args];

describe('serveFace', () => {
  it('is stdio by default, HTTP with --http or --daemon, and nothing for other commands or help', () => {
    expect(serveFace(argv('serve'))).toBe('stdio');
    expect(serveFace(argv('serve', '--stdio', '--config', 'a.json'))).toBe('stdio');
    expect(serveFace(argv('serve', '--http', '--port', '0'))).toBe('http');
    expect(serveFace(argv('serve', '--daemon', '--data-dir', 'd'))).toBe('http');
    expect(serveFace(argv('serve', '--help'))).toBeUndefined();
    expect(serveFace(argv('serve', '-h'))).toBeUndefined();
    expect(serveFace(argv('metrics', '--http'))).toBeUndefined();
    expect(serveFace(argv())).toBeUndefined();
  });

  it("reads an option's value as commander does, even one that looks like a flag", () => {
    expect(serveFace(argv('serve', '--log-file', '--http'))).toBe('stdio');
    expect(serveFace(argv('serve', '--config', '--daemon'))).toBe('stdio');
    expect(serveFace(argv('serve', '--toolset=--http'))).toBe('stdio');
    expect(serveOptions(argv('serve', '-c', 'x.json', '--data-dir', 'd', '--http'))).toMatchObject({ config: 'x.json', 'data-dir': 'd', http: true });
    // After `--` nothing is an option.
    expect(serveFace(argv('serve', '--', '--http'))).toBe('stdio');
  });

  it('tells the face from options already parsed (serve-prestart parses its command line once)', () => {
    const faces: Array<[string[], string | undefined]> = [[['serve'], 'stdio'], [['serve', '--http'], 'http'], [['serve', '--daemon'], 'http'], [['serve', '--help'], undefined], [['serve', '--log-file', '--http'], 'stdio']];
    for (const [args, face] of faces) expect(faceOf(serveOptions(argv(...args))!), args.join(' ')).toBe(face);
  });
});
