// Owns the log level names every command accepts (a module of its own: the command line lists them
// without loading the logger).
import type { LevelWithSilent } from 'pino';

export const LOG_LEVELS: readonly LevelWithSilent[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
