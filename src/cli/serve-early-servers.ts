// Owns serve's side of the early start (serve-prestart.ts): early children the loaded configuration
// would not start that way are stopped; the rest are adopted by the stdio session's connections as
// soon as the session exists (so their handshake overlaps the client's first requests); whatever no
// connection adopted within CLAIM_WINDOW_MS is stopped. (What the next start picks its servers from,
// recent-servers.json, is written by called-servers-keeper.ts.)
import type { ServerConfig } from '../config/index.js';
import type { Gateway } from '../gateway/gateway.js';
import type { GatewaySession } from '../gateway/session.js';
import { viewIncludes } from '../gateway/view.js';
import type { Logger } from '../logging/logger.js';
import { discardPrestarted, prestartedKeys } from '../servers/prestart.js';
import { sameSpawnSpec, stdioSpawnSpec } from '../servers/spawn-spec.js';
import { prestartOutcome } from './serve-prestart.js';

/** An early child no connection adopted within this long is stopped (lazy start resumes for it). */
const CLAIM_WINDOW_MS = 30_000;

export interface EarlyServers {
  /** A stdio session exists: its connections adopt the early children of the servers its view includes. */
  adopt(session: GatewaySession): void;
}

export function adoptEarlyServers(gateway: Gateway, servers: readonly ServerConfig[], log: Logger): EarlyServers {
  if (prestartOutcome.started.length) log.info({ servers: prestartOutcome.started, ...(prestartOutcome.initializedEarly && { initializedEarly: prestartOutcome.initializedEarly }) }, 'servers started early, before the gateway loaded');
  if (prestartOutcome.earlyHandshakeFailed) log.debug({ reason: prestartOutcome.earlyHandshakeFailed }, 'the client\'s first line was not read for an early handshake; the connections make their own');
  else if (prestartOutcome.skipped?.startsWith('early start failed')) log.warn({ reason: prestartOutcome.skipped }, 'no server started early; they start on first use');
  else if (prestartOutcome.skipped) log.debug({ reason: prestartOutcome.skipped }, 'no server started early');
  const configured = new Map(servers.filter((s) => !s.disabled).map((s) => [s.key, s]));
  const stopped = (why: string) => (keys: string[]) => {
    if (keys.length) log.info({ servers: keys }, why);
  };
  void discardPrestarted(log, (entry) => {
    const server = configured.get(entry.key);
    return server?.transport === 'stdio' && sameSpawnSpec(entry.spec, stdioSpawnSpec(server));
  }).then(stopped('servers started early that the configuration starts otherwise (or not at all) stopped'));
  if (prestartedKeys().length) setTimeout(() => void discardPrestarted(log).then(stopped(`servers started early that no client used within ${CLAIM_WINDOW_MS / 1000} s stopped`)), CLAIM_WINDOW_MS).unref();
  return {
    adopt(session) {
      const start = () => {
        for (const key of prestartedKeys()) {
          if (!viewIncludes(session.view, key)) continue;
          void gateway.pool
            .connection(key, session.profile)
            ?.start()
            .catch((error: Error) => log.debug({ server: key, err: error.message }, 'a server started early did not connect'));
        }
      };
      // The connections belong to the client's capability profile, known once it has initialized
      // (a 2026-07-28 client's at once).
      if (session.era === 'modern' || session.clientCapabilities) return start();
      const initialized = session.server.oninitialized;
      session.server.oninitialized = () => {
        initialized?.();
        start();
      };
    },
  };
}
