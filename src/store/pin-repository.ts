// Owns the tool_pins table: the approved (pinned) definition of each tool per server identity, and the
// latest differing definition a listing showed, until a person approves it. Writes are transactional.
import type Database from 'better-sqlite3';

export interface ToolPin {
  server: string;
  identity: string;
  tool: string;
  /** Hash of the pinned (approved) definition. */
  hash: string;
  definition: Record<string, unknown>;
  pinnedAt: number;
  /** When a person last approved a change (undefined: pinned on first sight, never changed). */
  approvedAt?: number;
  /** The latest listed definition that differs from the pin; undefined while the pin is listed. */
  seen?: { hash: string; definition: Record<string, unknown>; at: number };
}

/** Pin storage behind an interface a Postgres store can implement too. */
export interface PinRepository {
  /** Pins of a server identity (every identity of the key when omitted), by tool name. */
  pins(server: string, identity?: string): ToolPin[];
  /**
   * Records what one listing showed, in one transaction: `pin` are tools seen for the first time (an
   * existing pin is left alone); `seen` are listed definitions that differ from the pin (`undefined`: the
   * listing matches the pin again).
   */
  record(server: string, identity: string, changes: { pin: PinWrite[]; seen: Array<{ tool: string; seen: Omit<PinWrite, 'tool'> | undefined }> }): void;
  /**
   * Makes the seen definition the pin, only if it still has `expectedHash` (what the person was shown).
   * Returns false when there is nothing to approve or it changed again meanwhile.
   */
  approve(server: string, identity: string, tool: string, expectedHash: string): boolean;
  /** Bumped on every approval; another process polls it to re-read pins. */
  generation(): number;
}

export interface PinWrite {
  tool: string;
  hash: string;
  definition: Record<string, unknown>;
}

interface PinRow {
  server: string;
  identity: string;
  tool: string;
  hash: string;
  definition: string;
  pinned_at: number;
  approved_at: number | null;
  seen_hash: string | null;
  seen_definition: string | null;
  seen_at: number | null;
}

const GENERATION_KEY = 'pins_generation';

export class SqlitePinRepository implements PinRepository {
  private prepared: ReturnType<SqlitePinRepository['prepare']> | undefined;

  constructor(
    private readonly db: Database.Database,
    private readonly clock: () => number,
  ) {}

  /** Statements are prepared on first use (a store opened at an older schema version has no tool_pins). */
  private get stmt() {
    return (this.prepared ??= this.prepare());
  }

  private prepare() {
    const db = this.db;
    return {
      byIdentity: db.prepare<[string, string], PinRow>('SELECT * FROM tool_pins WHERE server = ? AND identity = ? ORDER BY tool'),
      byServer: db.prepare<[string], PinRow>('SELECT * FROM tool_pins WHERE server = ? ORDER BY identity, tool'),
      insert: db.prepare<[string, string, string, string, string, number]>(
        'INSERT INTO tool_pins (server, identity, tool, hash, definition, pinned_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING',
      ),
      seen: db.prepare<[string | null, string | null, number | null, string, string, string]>(
        'UPDATE tool_pins SET seen_hash = ?, seen_definition = ?, seen_at = ? WHERE server = ? AND identity = ? AND tool = ?',
      ),
      approve: db.prepare<[number, string, string, string, string]>(
        `UPDATE tool_pins SET hash = seen_hash, definition = seen_definition, approved_at = ?, seen_hash = NULL, seen_definition = NULL, seen_at = NULL
         WHERE server = ? AND identity = ? AND tool = ? AND seen_hash = ?`,
      ),
      generation: db.prepare<[string], { value: string }>('SELECT value FROM store_meta WHERE key = ?'),
      bump: db.prepare<[string]>(
        `INSERT INTO store_meta (key, value) VALUES (?, '1')
         ON CONFLICT (key) DO UPDATE SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT)`,
      ),
    };
  }

  pins(server: string, identity?: string): ToolPin[] {
    const rows = identity === undefined ? this.stmt.byServer.all(server) : this.stmt.byIdentity.all(server, identity);
    return rows.map(toPin);
  }

  record(server: string, identity: string, changes: { pin: PinWrite[]; seen: Array<{ tool: string; seen: Omit<PinWrite, 'tool'> | undefined }> }): void {
    if (changes.pin.length === 0 && changes.seen.length === 0) return;
    const pins = changes.pin.map((p) => ({ ...p, json: JSON.stringify(p.definition) }));
    const seen = changes.seen.map((s) => ({ tool: s.tool, hash: s.seen?.hash ?? null, json: s.seen ? JSON.stringify(s.seen.definition) : null }));
    const now = this.clock();
    this.db.transaction(() => {
      for (const p of pins) this.stmt.insert.run(server, identity, p.tool, p.hash, p.json, now);
      for (const s of seen) this.stmt.seen.run(s.hash, s.json, s.hash === null ? null : now, server, identity, s.tool);
    }).immediate();
  }

  approve(server: string, identity: string, tool: string, expectedHash: string): boolean {
    return this.db.transaction(() => {
      const changed = this.stmt.approve.run(this.clock(), server, identity, tool, expectedHash).changes > 0;
      if (changed) this.stmt.bump.run(GENERATION_KEY);
      return changed;
    }).immediate();
  }

  generation(): number {
    return Number(this.stmt.generation.get(GENERATION_KEY)?.value ?? 0);
  }
}

function toPin(row: PinRow): ToolPin {
  return {
    server: row.server,
    identity: row.identity,
    tool: row.tool,
    hash: row.hash,
    definition: JSON.parse(row.definition) as Record<string, unknown>,
    pinnedAt: row.pinned_at,
    ...(row.approved_at !== null && { approvedAt: row.approved_at }),
    ...(row.seen_hash !== null && row.seen_definition !== null && { seen: { hash: row.seen_hash, definition: JSON.parse(row.seen_definition) as Record<string, unknown>, at: row.seen_at ?? 0 } }),
  };
}
