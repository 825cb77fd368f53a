// Test helper: the JSON lines of the newest run's log file in <data dir>/logs.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

export type LogLine = Record<string, unknown>;

export async function newestRunLogLines(dataDir: string): Promise<LogLine[]> {
  const dir = path.join(dataDir, 'logs');
  const [name] = (await readdir(dir)).sort().reverse();
  return (await readFile(path.join(dir, name!), 'utf8')).split('\n').filter(Boolean).map((l) => JSON.parse(l) as LogLine);
}
