// Owns the pino logger factory: JSON to stderr (stdout belongs to the MCP stdio protocol),
// pretty-printed when stderr is a TTY, optionally also JSON lines to a file (both written
// asynchronously), every line bounded (see bound.ts), one child logger per module.
import { pino, destination, multistream, transport, type Logger, type LevelWithSilent, type DestinationStream } from 'pino';
import { DEFAULT_BOUNDS, bound, serializeError, type BoundOptions } from './bound.js';

export type { Logger };

export const LOG_LEVELS: readonly LevelWithSilent[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export interface LoggerOptions {
  level?: LevelWithSilent;
  /** Force pretty output on or off; default: pretty when stderr is a TTY. */
  pretty?: boolean;
  /** Also write JSON lines to this open file descriptor (appending, asynchronously). */
  fileFd?: number;
  /** Called once if writing the file fails later (disk full, ...); stderr logging goes on. */
  onFileError?: (error: Error) => void;
}

let root: Logger | undefined;

export function createRootLogger(options: LoggerOptions = {}): Logger {
  const level = options.level ?? (process.env.SWITCHBOARD_LOG_LEVEL as LevelWithSilent | undefined) ?? 'info';
  const pretty = options.pretty ?? Boolean(process.stderr.isTTY);
  // Stack traces only at debug and below; every logged object is bounded (strings, depth, width, cycles).
  const bounds: BoundOptions = { ...DEFAULT_BOUNDS, stacks: level === 'debug' || level === 'trace' };
  const settings = {
    level,
    base: undefined,
    redact: { paths: ['*.headers.authorization', '*.headers.Authorization', '*.env', 'arguments', '*.arguments'], censor: '[redacted]' },
    serializers: { err: (error: unknown) => (error instanceof Error ? serializeError(error, bounds) : error) },
    formatters: { log: (object: Record<string, unknown>) => bound(object, bounds) as Record<string, unknown> },
    depthLimit: bounds.maxDepth + 1,
    edgeLimit: bounds.maxItems + 1,
  };
  const stderr: DestinationStream = pretty
    ? transport({ target: 'pino-pretty', options: { destination: 2, colorize: true, translateTime: 'HH:MM:ss.l', ignore: 'pid,hostname' } })
    : destination({ dest: 2, sync: false });
  if (options.fileFd === undefined || level === 'silent') {
    root = pino(settings, stderr);
    return root;
  }
  const file = destination({ dest: options.fileFd, sync: false });
  let failed = false;
  file.on('error', (error: Error) => {
    if (failed) return;
    failed = true;
    options.onFileError?.(error);
  });
  // Each stream takes every line the logger (or a child with its own level) lets through.
  root = pino(settings, multistream([{ level: 'trace', stream: stderr }, { level: 'trace', stream: file }]));
  return root;
}

/** The process-wide root logger (created on first use with defaults). */
export function rootLogger(): Logger {
  return root ?? createRootLogger();
}

/** A child logger tagged with the module that logs. */
export function moduleLogger(module: string, bindings: Record<string, unknown> = {}): Logger {
  return rootLogger().child({ module, ...bindings });
}
