// Owns the shim's log: JSON lines on stderr (stdout carries the client's JSON-RPC), at warn unless
// asked for more. Not pino: a shim logs a handful of lines in its life, and loading pino cost it
// ~30 ms of start-up.
import type { RelayLog } from './relay.js';

const LEVELS = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60, silent: Infinity } as const;

export function shimLog(level: string = 'warn', write: (line: string) => void = (line) => void process.stderr.write(line)): RelayLog {
  const min = LEVELS[level as keyof typeof LEVELS] ?? LEVELS.warn;
  const at = (value: number) => (fields: Record<string, unknown>, msg: string) => {
    if (value >= min) write(`${JSON.stringify({ level: value, time: Date.now(), module: 'connect', ...fields, msg })}\n`);
  };
  return { debug: at(LEVELS.debug), info: at(LEVELS.info), warn: at(LEVELS.warn) };
}
