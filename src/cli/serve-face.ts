// Owns telling, from the raw command line, which face a `serve` run serves: stdio (the default), or
// HTTP (`--http`, or `--daemon`, which serves HTTP); undefined for any other command or `--help`.
// Read before commander parses anything: by the young generation's cap and the code cache
// (young-generation-cap.ts, compile-cache.ts) and by serve's early start (serve-prestart.ts). It
// knows serve's options that take a value, so `--log-file --http` is a file name, as commander
// reads it. bin/switchboard.js orders its first imports by a quicker look at the same flags; that
// order is only an optimization, and these modules decide for themselves. Light on purpose.
import { parseArgs } from 'node:util';

export type ServeFace = 'stdio' | 'http';

/** Options of `serve` (and the common ones) that take a value (src/cli/main.ts). */
const VALUE_OPTIONS = ['config', 'data-dir', 'log-level', 'host', 'port', 'mode', 'toolset', 'log-file', 'pinning', 'inbound-era'] as const;

/** The parsed options of a `serve` command line (`argv` as process.argv), or undefined for any other command. */
export function serveOptions(argv: readonly string[]): Record<string, string | boolean | undefined> | undefined {
  if (argv[2] !== 'serve') return undefined;
  const options = Object.fromEntries([
    ...VALUE_OPTIONS.map((name) => [name, { type: 'string' as const, ...(name === 'config' && { short: 'c' }) }]),
    ...['http', 'daemon', 'stdio'].map((name) => [name, { type: 'boolean' as const }]),
    ['help', { type: 'boolean' as const, short: 'h' }],
  ]);
  const { values } = parseArgs({ args: argv.slice(3), strict: false, allowPositionals: true, options });
  return values as Record<string, string | boolean | undefined>;
}

/** Which face `argv` serves (process.argv), or undefined when it is not a `serve` run. */
export function serveFace(argv: readonly string[]): ServeFace | undefined {
  const values = serveOptions(argv);
  return values && faceOf(values);
}

/** Which face a `serve` run with these parsed options (serveOptions) serves; undefined for `--help`. */
export function faceOf(values: Readonly<Record<string, string | boolean | undefined>>): ServeFace | undefined {
  if (values.help) return undefined;
  return values.http || values.daemon ? 'http' : 'stdio';
}
