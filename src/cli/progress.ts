// Owns start-up progress for commands that start servers: which servers are starting and which
// answered (or failed), so a first run with slow `npx` servers is not silent. On a terminal where
// nothing else writes meanwhile (no warnings logged: `switchboard servers`) it is one line on stderr,
// rewritten in place and erased when the servers are listed, so what the command prints (the table)
// comes first and alone; on a terminal with log lines it is one plain line per event (a line being
// rewritten would get log text appended to it); otherwise each event is an info log line.
import type { ServerPool } from '../servers/pool.js';
import type { Connection } from '../servers/connection.js';
import type { Logger } from '../logging/logger.js';

/** Carriage return and erase-to-end-of-line: the terminal line is rewritten, never added to. */
const REWRITE = '\r\x1b[K';

type Outcome = { event: 'starting' } | { event: 'answered'; ms: number } | { event: 'failed'; error?: string };

/** The one terminal line: how many answered or failed, and who is still awaited (cut to the width). */
function terminalLine(servers: ReadonlyMap<string, Outcome>, columns: number): string {
  const all = [...servers.values()];
  const answered = all.filter((o) => o.event === 'answered').length;
  const failed = [...servers].filter(([, o]) => o.event === 'failed').map(([key]) => key);
  const waiting = [...servers].filter(([, o]) => o.event === 'starting').map(([key]) => key);
  const parts = [`${answered} answered`, ...(failed.length ? [`${failed.length} failed (${failed.join(', ')})`] : []), ...(waiting.length ? [`waiting for ${waiting.join(', ')}`] : [])];
  const line = `switchboard: starting ${servers.size} server(s): ${parts.join(', ')}`;
  return line.length < columns ? line : `${line.slice(0, Math.max(columns - 2, 10))}\u2026`;
}

export interface StartProgressOptions {
  /** On a terminal: one line rewritten in place and erased by the returned stop (only when no log line can come between). */
  inPlace?: boolean;
}

/** Plain terminal line of one event (when not in place). */
function eventLine(server: string, outcome: Outcome): string {
  const detail = outcome.event === 'starting' ? '...' : outcome.event === 'answered' ? ` in ${(outcome.ms / 1000).toFixed(1)} s` : `: ${outcome.error ?? 'see switchboard servers'}`;
  return `switchboard: ${server} ${outcome.event}${detail}\n`;
}

export function reportStartProgress(pool: ServerPool, log: Logger, stream: NodeJS.WriteStream = process.stderr, options: StartProgressOptions = {}): () => void {
  const startedAt = new Map<string, number>();
  /** Each server's first start (retries are not reported: the error is in `switchboard servers`). */
  const servers = new Map<string, Outcome>();
  let drawn = false;
  const say = (server: string, outcome: Outcome) => {
    servers.set(server, outcome);
    if (stream.isTTY && options.inPlace) {
      stream.write(`${REWRITE}${terminalLine(servers, stream.columns || 80)}`);
      drawn = true;
    } else if (stream.isTTY) {
      stream.write(eventLine(server, outcome));
    } else {
      const ms = outcome.event === 'answered' ? outcome.ms : undefined;
      const error = outcome.event === 'failed' ? outcome.error : undefined;
      log.info({ server, ...(ms !== undefined && { ms }), ...(error && { err: error }) }, `server ${outcome.event}`);
    }
  };
  const onState = (connection: Connection) => {
    const key = connection.key;
    if (servers.has(key) && servers.get(key)!.event !== 'starting') return;
    if (connection.state === 'connecting' && !startedAt.has(key)) {
      startedAt.set(key, Date.now());
      say(key, { event: 'starting' });
    } else if (connection.state === 'connected' && startedAt.has(key)) {
      say(key, { event: 'answered', ms: Date.now() - startedAt.get(key)! });
    } else if (connection.state === 'failed' && startedAt.has(key)) {
      say(key, { event: 'failed', error: connection.status().lastError ?? undefined });
    }
  };
  pool.on('state', onState);
  return () => {
    pool.off('state', onState);
    if (drawn) stream.write(REWRITE); // erased: the command's own output starts on a clean line
  };
}
