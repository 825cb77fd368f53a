// Owns the pino logger factory: JSON to stderr (stdout belongs to the MCP stdio protocol),
// pretty-printed when stderr is a TTY, optionally also JSON lines to a file (both written
// asynchronously), every line bounded (see bound.ts), one child logger per module.
import { createRequire } from 'node:module';
import { pino, destination, multistream, type Logger, type LevelWithSilent, type DestinationStream } from 'pino';
import { DEFAULT_BOUNDS, bound, serializeError, type BoundOptions } from './bound.js';

export type { Logger };

export { LOG_LEVELS } from './levels.js';

export interface LoggerOptions {
  level?: LevelWithSilent;
  /** Force pretty output on or off; default: pretty when stderr is a TTY. */
  pretty?: boolean;
  /** Also write JSON lines to this open file descriptor (appending, asynchronously). */
  fileFd?: number;
  /** Called once if writing the file fails later (disk full, ...); stderr logging goes on. */
  onFileError?: (error: Error) => void;
  /** With fileFd: false writes the file only (benchmarks, tests); default true. */
  stderr?: boolean;
}

let root: Logger | undefined;
let fileOnly: Logger | undefined;

/** Lines are written to the file in batches of this many bytes, and at least this often (ms), and at exit. */
const FILE_BATCH_BYTES = 4096;
const FILE_FLUSH_MS = 500;

/**
 * pino's transport factory from the pino package itself, loaded on first use: the pretty printer runs
 * in a worker thread that pino starts by file name, so it must come from node_modules (the command's
 * bundle carries pino's logging code, not its worker files; scripts/bundle.mjs).
 */
function prettyTransport(): typeof import('pino').transport {
  return (createRequire(import.meta.url)('pino') as typeof import('pino')).transport;
}

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
  const toStderr = (): DestinationStream => pretty
    ? prettyTransport()({ target: 'pino-pretty', options: { destination: 2, colorize: true, translateTime: 'HH:MM:ss.l', ignore: 'pid,hostname' } })
    : destination({ dest: 2, sync: false });
  fileOnly = undefined;
  if (options.fileFd === undefined || level === 'silent') {
    root = pino(settings, toStderr());
    return root;
  }
  // Batched: one write(2) per line cost more than the rest of a logged line (measured, docs/logging.md).
  const file = destination({ dest: options.fileFd, sync: false, minLength: FILE_BATCH_BYTES, periodicFlush: FILE_FLUSH_MS });
  let failed = false;
  file.on('error', (error: Error) => {
    if (failed) return;
    failed = true;
    // Stop using the file for good: sonic-boom's exit-time flushSync retries a failing write (ENOSPC,
    // EIO) forever, which hung the gateway at exit once its disk was full. Writes become no-ops and
    // the destroyed stream is skipped by pino's exit flush.
    file.write = () => true;
    file.flushSync = () => undefined;
    try {
      file.destroy();
    } catch {
      // already closed
    }
    options.onFileError?.(error);
  });
  // Lean on purpose (no redaction paths, no bounding pass: they cost 2.5x the rest of a line, measured):
  // its callers log only scalars and values they bounded and redacted themselves (request-log.ts).
  fileOnly = pino({ level, base: undefined, depthLimit: settings.depthLimit, edgeLimit: settings.edgeLimit }, file);
  if (options.stderr === false) {
    root = pino(settings, file);
    return root;
  }
  // Each stream takes every line the logger (or a child with its own level) lets through.
  root = pino(settings, multistream([{ level: 'trace', stream: toStderr() }, { level: 'trace', stream: file }]));
  return root;
}

/**
 * A logger writing to the log file only, when the root logger has one (request lines go there, not
 * to stderr). It neither redacts nor bounds: log only scalars and values already bounded.
 */
export function fileLogger(): Logger | undefined {
  return fileOnly;
}

/** The process-wide root logger (created on first use with defaults). */
export function rootLogger(): Logger {
  return root ?? createRootLogger();
}

/** A child logger tagged with the module that logs. */
export function moduleLogger(module: string, bindings: Record<string, unknown> = {}): Logger {
  return rootLogger().child({ module, ...bindings });
}
