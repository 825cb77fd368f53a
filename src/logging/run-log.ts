// Owns setting up a gateway run's logging: the per-run file in <data dir>/logs (or the file the
// user named, or none), retention of older run files, the stderr-only fallback with a warning when
// the file cannot be created, and request logging when asked for.
import path from 'node:path';
import type { LevelWithSilent } from 'pino';
import { createRunLogFile, logDirOf, openNamedLogFile, pruneLogFiles, type LogRetention, type OpenedLogFile } from './log-files.js';
import { createRootLogger, fileLogger, type Logger } from './logger.js';
import { enableRequestLog } from './request-log.js';

export interface RunLogOptions {
  level: LevelWithSilent;
  dataDir: string;
  /** true: a new file per run in <dataDir>/logs; false: stderr only; a string: append to that file. */
  file: boolean | string;
  retention: LogRetention;
  /** One line per request and response (see request-log.ts). */
  logRequests: boolean;
  /** With logRequests: include argument values, secrets redacted. */
  logArguments: boolean;
  pretty?: boolean;
}

export interface RunLog {
  log: Logger;
  /** The file this run writes, when it has one. */
  file?: string;
}

export function startRunLogging(options: RunLogOptions): RunLog {
  let opened: OpenedLogFile | undefined;
  let failure: string | undefined;
  const target = typeof options.file === 'string' ? path.resolve(options.file) : options.file ? logDirOf(options.dataDir) : undefined;
  if (target !== undefined && options.level !== 'silent') {
    try {
      opened = typeof options.file === 'string' ? openNamedLogFile(target) : createRunLogFile(target);
    } catch (error) {
      failure = `${(error as NodeJS.ErrnoException).code ?? 'error'}: ${(error as Error).message}`;
    }
  }
  let log: Logger;
  log = createRootLogger({
    level: options.level,
    ...(options.pretty !== undefined && { pretty: options.pretty }),
    ...(opened && {
      fileFd: opened.fd,
      onFileError: (error: Error) => log.warn({ file: opened!.path, err: error.message }, 'writing the log file failed; logging goes on to stderr only'),
    }),
  });
  if (failure) log.warn({ file: target, err: failure }, 'cannot create the log file; logging to stderr only (set --log-file <path>, or --no-log-file to silence this)');
  if (opened && options.file === true) {
    pruneLogFiles(target!, options.retention, opened.path, Date.now(), (message) => log.warn(message));
  }
  // With a file, request lines go only there (stderr stays readable); without one, to stderr.
  if (options.logRequests) enableRequestLog(fileLogger() ?? log, { logArguments: options.logArguments });
  return { log, ...(opened && { file: opened.path }) };
}
