// Owns the pino logger factory: JSON to stderr (stdout belongs to the MCP stdio protocol),
// pretty-printed when stderr is a TTY, one child logger per module.
import { pino, destination, type Logger, type LevelWithSilent } from 'pino';

export type { Logger };

export const LOG_LEVELS: readonly LevelWithSilent[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export interface LoggerOptions {
  level?: LevelWithSilent;
  /** Force pretty output on or off; default: pretty when stderr is a TTY. */
  pretty?: boolean;
}

let root: Logger | undefined;

export function createRootLogger(options: LoggerOptions = {}): Logger {
  const level = options.level ?? (process.env.SWITCHBOARD_LOG_LEVEL as LevelWithSilent | undefined) ?? 'info';
  const pretty = options.pretty ?? Boolean(process.stderr.isTTY);
  const redact = { paths: ['*.headers.authorization', '*.headers.Authorization', '*.env', 'arguments', '*.arguments'], censor: '[redacted]' };
  if (pretty) {
    root = pino({
      level,
      redact,
      transport: { target: 'pino-pretty', options: { destination: 2, colorize: true, translateTime: 'HH:MM:ss.l', ignore: 'pid,hostname' } },
    });
  } else {
    root = pino({ level, redact, base: undefined }, destination({ dest: 2, sync: false }));
  }
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
