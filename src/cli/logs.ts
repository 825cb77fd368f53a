// Owns `switchboard logs`: prints the newest run's log file from <data-dir>/logs (or --file),
// pretty, filtered by level and server, and with --follow keeps printing what is appended (moving
// on to a newer run's file when one starts). Starts no server and reads no config.
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import path from 'node:path';
import PinoPretty from 'pino-pretty';
import { logDirOf, newestLogFile } from '../logging/log-files.js';
import { defaultDataDir } from './context.js';
import { UsageError } from './inventory.js';

export interface LogsOptions {
  dataDir?: string;
  follow?: boolean;
  level?: string;
  server?: string;
  file?: string;
  json?: boolean;
}

const LEVELS: Record<string, number> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60 };
const POLL_MS = 250;
const CHUNK = 1 << 16;

/** Keeps a line when it is at `level` or above and (with `server`) about that server. */
export function lineFilter(options: Pick<LogsOptions, 'level' | 'server'>): (record: Record<string, unknown>) => boolean {
  const min = options.level ? LEVELS[options.level] : undefined;
  if (options.level && min === undefined) throw new UsageError(`--level must be one of ${Object.keys(LEVELS).join(', ')} (got "${options.level}")`);
  return (record) => (min === undefined || (typeof record.level === 'number' && record.level >= min)) && (options.server === undefined || record.server === options.server);
}

/** Reads `file` from `offset`; returns the complete lines and where the next read starts. */
function readLines(file: string, offset: number): { lines: string[]; next: number } {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (error) {
    // Following, a file can vanish (removed by a newer run's retention): nothing more to read there.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' && offset > 0) return { lines: [], next: offset };
    throw error;
  }
  try {
    const size = statSync(file).size;
    if (size < offset) offset = 0; // truncated or replaced: start over
    const parts: Buffer[] = [];
    for (let at = offset; at < size; ) {
      const part = Buffer.alloc(Math.min(CHUNK, size - at));
      const read = readSync(fd, part, 0, part.length, at);
      if (read === 0) break;
      parts.push(part.subarray(0, read));
      at += read;
    }
    const text = Buffer.concat(parts).toString('utf8');
    const end = text.lastIndexOf('\n');
    if (end === -1) return { lines: [], next: offset };
    return { lines: text.slice(0, end).split('\n'), next: offset + Buffer.byteLength(text.slice(0, end + 1)) };
  } finally {
    closeSync(fd);
  }
}

export async function logsCommand(options: LogsOptions): Promise<void> {
  const keep = lineFilter(options);
  const dir = logDirOf(path.resolve(options.dataDir ?? defaultDataDir()));
  let file = options.file ? path.resolve(options.file) : newestLogFile(dir);
  if (!file) throw new UsageError(`no log files in ${dir} yet: "switchboard serve" writes one per run (unless --no-log-file or "logFile": false).`);
  const pretty = options.json ? undefined : PinoPretty.prettyFactory({ colorize: Boolean(process.stdout.isTTY), translateTime: 'SYS:yyyy-mm-dd HH:MM:ss.l', ignore: 'pid,hostname' });
  const print = (lines: string[]) => {
    let out = '';
    for (const line of lines) {
      if (!line) continue;
      let record: Record<string, unknown>;
      try {
        record = JSON.parse(line) as Record<string, unknown>;
      } catch {
        out += `${line}\n`; // not JSON (a crash message): shown as it is
        continue;
      }
      if (!keep(record)) continue;
      out += pretty ? pretty(record) : `${line}\n`;
    }
    if (out) process.stdout.write(out);
  };
  if (!options.json) process.stderr.write(`==> ${file} <==\n`);
  let { lines, next } = readLines(file, 0);
  print(lines);
  if (!options.follow) return;
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    ({ lines, next } = readLines(file, next));
    print(lines);
    const newer = options.file ? undefined : newestLogFile(dir);
    if (newer && newer !== file) {
      print(readLines(file, next).lines); // what the old run wrote since the last look
      file = newer;
      next = 0;
      process.stderr.write(`==> ${file} <==\n`);
    }
  }
}
