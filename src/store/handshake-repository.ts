// Owns the remembered handshakes: what each server answered to initialize (capabilities and
// instructions) at its last connection, keyed by server identity, so per-server endpoints can
// answer a client's initialize from it instead of starting the server.
import type Database from 'better-sqlite3';

export interface Handshake {
  capabilities: Record<string, unknown>;
  instructions?: string;
  /** When the server last answered it (ms since epoch). */
  seenAt: number;
}

export interface HandshakeRepository {
  load(server: string): Handshake | undefined;
  /** Creates or replaces a server's handshake. */
  save(server: string, handshake: { capabilities: Record<string, unknown>; instructions?: string }): void;
}

interface Row {
  capabilities: string;
  instructions: string | null;
  seen_at: number;
}

export class SqliteHandshakeRepository implements HandshakeRepository {
  constructor(
    private readonly db: Database.Database,
    private readonly clock: () => number,
  ) {}

  load(server: string): Handshake | undefined {
    const row = this.db.prepare<[string], Row>('SELECT capabilities, instructions, seen_at FROM server_handshakes WHERE server = ?').get(server);
    if (!row) return undefined;
    return { capabilities: JSON.parse(row.capabilities) as Record<string, unknown>, ...(row.instructions !== null && { instructions: row.instructions }), seenAt: row.seen_at };
  }

  save(server: string, handshake: { capabilities: Record<string, unknown>; instructions?: string }): void {
    this.db
      .prepare(
        `INSERT INTO server_handshakes (server, capabilities, instructions, seen_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (server) DO UPDATE SET capabilities = excluded.capabilities, instructions = excluded.instructions, seen_at = excluded.seen_at`,
      )
      .run(server, JSON.stringify(handshake.capabilities), handshake.instructions ?? null, this.clock());
  }
}
