// Owns start-up progress for commands that start servers: which servers are starting and which
// answered (or failed), so a first run with slow `npx` servers is not silent. On a terminal the
// lines go to stderr for people; otherwise they are info log lines.
import type { ServerPool } from '../servers/pool.js';
import type { Connection } from '../servers/connection.js';
import type { Logger } from '../logging/logger.js';

export function reportStartProgress(pool: ServerPool, log: Logger, stream: NodeJS.WriteStream = process.stderr): () => void {
  const startedAt = new Map<string, number>();
  /** Servers whose first start was reported: retries are not (the error is in `switchboard servers`). */
  const reported = new Set<string>();
  const say = (server: string, event: 'starting' | 'answered' | 'failed', ms?: number, error?: string) => {
    if (stream.isTTY) {
      const detail = event === 'starting' ? '...' : event === 'answered' ? ` in ${((ms ?? 0) / 1000).toFixed(1)} s` : `: ${error ?? 'see switchboard servers'}`;
      stream.write(`switchboard: ${server} ${event}${detail}\n`);
    } else {
      log.info({ server, ...(ms !== undefined && { ms }), ...(error && { err: error }) }, `server ${event}`);
    }
  };
  const onState = (connection: Connection) => {
    const key = connection.key;
    if (reported.has(key)) return;
    if (connection.state === 'connecting' && !startedAt.has(key)) {
      startedAt.set(key, Date.now());
      say(key, 'starting');
    } else if (connection.state === 'connected' && startedAt.has(key)) {
      say(key, 'answered', Date.now() - startedAt.get(key)!);
      reported.add(key);
    } else if (connection.state === 'failed' && startedAt.has(key)) {
      say(key, 'failed', undefined, connection.status().lastError ?? undefined);
      reported.add(key);
    }
  };
  pool.on('state', onState);
  return () => void pool.off('state', onState);
}
