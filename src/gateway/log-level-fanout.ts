// Owns sending a session's log level downstream: its own connections get that level; a shared connection
// gets the most verbose level any of its sessions asked for (each session is filtered to its own level on
// the way up, session-router.ts), so one client's setLevel never changes what another hears; and a
// session's own connection that comes back up gets that session's level again.
import type { LoggingLevel } from '@modelcontextprotocol/server';
import type { Logger } from '../logging/logger.js';
import type { Connection } from '../servers/connection.js';
import type { ServerPool } from '../servers/pool.js';
import { mostVerbose } from './log-levels.js';
import type { GatewaySession } from './session.js';
import type { SessionRouter } from './session-router.js';
import { viewIncludes } from './view.js';

export interface LogLevelFanOutOptions {
  pool: ServerPool;
  router: Pick<SessionRouter, 'sessionsOf' | 'ownerOf'>;
  log: Logger;
}

export class LogLevelFanOut {
  constructor(private readonly options: LogLevelFanOutOptions) {}

  /** A session set its log level: every connected server of its view that logs gets it (or a more verbose one, shared). */
  async sessionSet(session: GatewaySession, level: LoggingLevel): Promise<void> {
    const { pool, router } = this.options;
    const connections = pool.keys()
      .filter((key) => viewIncludes(session.view, key))
      .map((key) => pool.connection(key, session.profile)!)
      .filter((c) => c.state === 'connected' && c.serverCapabilities?.logging);
    const levelFor = (c: Connection): LoggingLevel =>
      c.profile.owner !== undefined ? level : mostVerbose(router.sessionsOf(c.profile, c.key).map((s) => s.logLevel)) ?? level;
    await Promise.all(connections.map((c) => this.send(c, levelFor(c))));
  }

  /** A session's own connection came (back) up: the log level that session set applies to it again. */
  connectionUp(connection: Connection): void {
    const owner = this.options.router.ownerOf(connection);
    if (!owner?.logLevel || !connection.serverCapabilities?.logging) return;
    void this.send(connection, owner.logLevel);
  }

  private send(connection: Connection, level: LoggingLevel): Promise<unknown> {
    return connection.request('logging/setLevel', { level }).catch((error: Error) => {
      this.options.log.debug({ server: connection.key, err: error.message }, 'logging/setLevel not accepted');
    });
  }
}
