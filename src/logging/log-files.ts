// Owns the per-run log files in <data dir>/logs: their names (switchboard_<UTC time>.log, with _2,
// _3 ... when two runs start in the same second), creating this run's file, retention (the newest
// N files and files younger than N days are kept), and finding the newest file for `switchboard logs`.
import { mkdirSync, openSync, readdirSync, statSync, unlinkSync } from 'node:fs';
import path from 'node:path';

const NAME = /^switchboard_(\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d)(?:_(\d+))?\.log$/;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface LogRetention {
  /** Keep at most this many files (0: no limit by count). */
  keepFiles: number;
  /** Remove files last written more than this many days ago (0: no limit by age). */
  keepDays: number;
}

export const DEFAULT_LOG_RETENTION: LogRetention = { keepFiles: 20, keepDays: 14 };

/** The folder holding the per-run log files of a data dir. */
export function logDirOf(dataDir: string): string {
  return path.join(dataDir, 'logs');
}

/** `2026-11-24T10-30-45` (UTC): an ISO timestamp with the colons a file name cannot hold replaced. */
export function fileStamp(at: Date): string {
  return at.toISOString().slice(0, 19).replaceAll(':', '-');
}

/** The log files in `dir`, oldest first (by the time in their name, then their suffix). */
export function listLogFiles(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const parsed = names.flatMap((name) => {
    const match = NAME.exec(name);
    return match ? [{ name, stamp: match[1]!, n: Number(match[2] ?? 1) }] : [];
  });
  parsed.sort((a, b) => (a.stamp < b.stamp ? -1 : a.stamp > b.stamp ? 1 : a.n - b.n));
  return parsed.map((p) => path.join(dir, p.name));
}

/** The newest run's log file in `dir`, if any. */
export function newestLogFile(dir: string): string | undefined {
  return listLogFiles(dir).at(-1);
}

export interface OpenedLogFile {
  path: string;
  /** An open file descriptor for appending (the logger writes to it asynchronously). */
  fd: number;
}

/**
 * Creates this run's file in `dir` (the folder too). Throws the file system's error (EACCES,
 * ENOTDIR, EROFS, ...) when it cannot be created; the caller warns and logs to stderr only.
 */
export function createRunLogFile(dir: string, at: Date = new Date()): OpenedLogFile {
  mkdirSync(dir, { recursive: true });
  const stamp = fileStamp(at);
  for (let n = 1; ; n++) {
    const file = path.join(dir, `switchboard_${stamp}${n === 1 ? '' : `_${n}`}.log`);
    try {
      return { path: file, fd: openSync(file, 'wx') };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || n >= 1000) throw error;
    }
  }
}

/** Opens a file the user named (--log-file) for appending, creating its folder. */
export function openNamedLogFile(file: string): OpenedLogFile {
  mkdirSync(path.dirname(file), { recursive: true });
  return { path: file, fd: openSync(file, 'a') };
}

/**
 * Removes old run files: all but the newest `keepFiles`, and any last written more than `keepDays`
 * days ago. `current` (this run's file) is never removed. Returns the removed paths; files that
 * cannot be removed are reported through `onError` and left.
 */
export function pruneLogFiles(dir: string, retention: LogRetention, current?: string, now = Date.now(), onError: (message: string) => void = () => undefined): string[] {
  const files = listLogFiles(dir);
  const removed: string[] = [];
  files.forEach((file, index) => {
    if (file === current) return;
    const beyondCount = retention.keepFiles > 0 && index < files.length - retention.keepFiles;
    let tooOld = false;
    if (!beyondCount && retention.keepDays > 0) {
      try {
        tooOld = now - statSync(file).mtimeMs > retention.keepDays * DAY_MS;
      } catch {
        return; // gone meanwhile (another run pruned it)
      }
    }
    if (!beyondCount && !tooOld) return;
    try {
      unlinkSync(file);
      removed.push(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') onError(`could not remove the old log file ${file}: ${(error as Error).message}`);
    }
  });
  return removed;
}
