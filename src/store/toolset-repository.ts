// Owns saved toolsets and the equipped one: named lists of tool references, written in
// transactions, so nothing a user built is lost on a crash or a bad input.
import type Database from 'better-sqlite3';
import { StoreError } from './errors.js';

/** A reference to one tool: by server key and original tool name. */
export interface ToolReference {
  server: string;
  tool: string;
}

export interface Toolset {
  name: string;
  description?: string;
  tools: ToolReference[];
  createdAt: number;
  updatedAt: number;
}

export interface ToolsetRepository {
  list(): Toolset[];
  get(name: string): Toolset | undefined;
  /** Creates or replaces a toolset (keeping its creation time). */
  save(toolset: { name: string; description?: string; tools: ToolReference[] }): Toolset;
  /** Deletes a toolset; unequips it when it was equipped. Returns whether it existed. */
  delete(name: string): boolean;
  /** The equipped toolset's name, if any. */
  active(): string | undefined;
  setActive(name: string | undefined): void;
}

interface Row {
  name: string;
  description: string | null;
  tools: string;
  created_at: number;
  updated_at: number;
}

const ACTIVE_KEY = 'active_toolset';

export class SqliteToolsetRepository implements ToolsetRepository {
  constructor(
    private readonly db: Database.Database,
    private readonly clock: () => number,
  ) {}

  list(): Toolset[] {
    return this.db.prepare<[], Row>('SELECT * FROM toolsets ORDER BY name').all().map(toToolset);
  }

  get(name: string): Toolset | undefined {
    const row = this.db.prepare<[string], Row>('SELECT * FROM toolsets WHERE name = ?').get(name);
    return row ? toToolset(row) : undefined;
  }

  save(toolset: { name: string; description?: string; tools: ToolReference[] }): Toolset {
    if (!toolset.name.trim()) throw new StoreError('invalid_input', 'a toolset needs a non-empty name');
    const now = this.clock();
    this.db
      .prepare(
        `INSERT INTO toolsets (name, description, tools, created_at, updated_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (name) DO UPDATE SET description = excluded.description, tools = excluded.tools, updated_at = excluded.updated_at`,
      )
      .run(toolset.name, toolset.description ?? null, JSON.stringify(toolset.tools), now, now);
    return this.get(toolset.name)!;
  }

  delete(name: string): boolean {
    return this.db.transaction(() => {
      const deleted = this.db.prepare('DELETE FROM toolsets WHERE name = ?').run(name).changes > 0;
      if (deleted && this.active() === name) this.setActive(undefined);
      return deleted;
    })();
  }

  active(): string | undefined {
    return this.db.prepare<[string], { value: string }>('SELECT value FROM gateway_state WHERE key = ?').get(ACTIVE_KEY)?.value;
  }

  setActive(name: string | undefined): void {
    if (name === undefined) this.db.prepare('DELETE FROM gateway_state WHERE key = ?').run(ACTIVE_KEY);
    else this.db.prepare('INSERT INTO gateway_state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(ACTIVE_KEY, name);
  }
}

function toToolset(row: Row): Toolset {
  return {
    name: row.name,
    ...(row.description !== null && { description: row.description }),
    tools: JSON.parse(row.tools) as ToolReference[],
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
