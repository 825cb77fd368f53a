// Owns who hears a server's log message (notifications/message), routed by its cause wherever the
// cause can be known and never by recency (docs/security.md, "Per-session state"):
// - a session's own connection: that session;
// - a shared connection while requests of exactly one session were running on it (the callers
//   stamped on arrival, src/servers/log-callers.ts): that session only, since a message a request
//   causes arrives before its answer;
// - a shared connection while requests of several sessions were running: the cause cannot be known,
//   so no client hears it (the gateway logs it instead);
// - a shared connection with nothing of a client running: background output of the server, to every
//   sharing session that asked for logs with logging/setLevel.
// Each session hears only messages at or above the level it set.
import type { Connection } from '../servers/connection.js';
import type { GatewaySession } from './session.js';
import { viewIncludes } from './view.js';

export type LogAudience =
  | { cause: 'owner' | 'caller' | 'background'; sessions: GatewaySession[] }
  /** Requests of `callers` sessions were running: nobody is told. */
  | { cause: 'unknown'; callers: number };

export interface LogSources {
  /** The session owning the connection (per-session connections only; undefined once it ended). */
  owner: GatewaySession | undefined;
  /** The open sessions sharing the connection (its profile, a view that includes the server). */
  sharing: GatewaySession[];
}

/** Who hears a log message of `level` from `connection`, given the callers running when it arrived. */
export function logAudience(connection: Connection, level: string, callers: readonly string[] | undefined, sources: LogSources): LogAudience {
  if (connection.profile.owner !== undefined) {
    const owner = sources.owner;
    return { cause: 'owner', sessions: owner && viewIncludes(owner.view, connection.key) && owner.wantsLog(level) ? [owner] : [] };
  }
  // A session that never sent logging/setLevel asked for nothing on a shared connection: the server's
  // level there is set by the others.
  const asked = (session: GatewaySession) => session.logLevel !== undefined && session.wantsLog(level);
  const running = callers ?? [];
  if (running.length === 0) return { cause: 'background', sessions: sources.sharing.filter(asked) };
  if (running.length === 1) return { cause: 'caller', sessions: sources.sharing.filter((s) => s.id === running[0] && asked(s)) };
  return { cause: 'unknown', callers: running.length };
}
