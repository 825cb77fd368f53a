// Owns the description-optimization tables: canonical tools, promotions (with their evaluation record),
// candidates, golden prompts and evaluation runs. Every write is one transaction.
import type Database from 'better-sqlite3';
import { StoreError } from './errors.js';

export interface CanonicalTool {
  server: string;
  tool: string;
  hash: string;
  /** The tool exactly as the server listed it. */
  definition: Record<string, unknown>;
  capturedAt: number;
  updatedAt: number;
}

export interface Promotion {
  id: number;
  server: string;
  tool: string;
  description: string;
  candidateId?: string;
  /** Content hash of the canonical tool the evaluation ran against. */
  canonicalHash: string;
  /** The evaluation record (decision, conditions, per-category numbers); absent for a forced promotion without one. */
  evaluation?: unknown;
  forced: boolean;
  stale: boolean;
  staleReason?: string;
  promotedAt: number;
  revertedAt?: number;
}

export type PromptCategory = 'direct' | 'indirect' | 'negative';
export type PromptSplit = 'optimize' | 'holdout';

export interface StoredCandidate {
  id: string;
  server: string;
  tool: string;
  description: string;
  example?: string;
  source: string;
  /** Lint findings at creation (empty: clean). */
  lint: Array<{ rule: string; message: string }>;
  createdAt: number;
}

export interface GoldenPrompt {
  id: string;
  server: string;
  tool: string;
  category: PromptCategory;
  prompt: string;
  expectedBehavior: { shouldCallTool: boolean; notes?: string };
  split: PromptSplit;
  source: string;
  createdAt: number;
}

export interface EvalRunRow {
  batch: string;
  server: string;
  tool: string;
  subject: string;
  promptId: string;
  repeat: number;
  backend: string;
  model: string;
  arm: string;
  result: { toolCalled: boolean; calledTool?: string; correct: boolean; error?: string; durationMs: number; tokens?: number };
}

export interface OptimizeRepository {
  canonical(server: string, tool: string): CanonicalTool | undefined;
  canonicalTools(server?: string): CanonicalTool[];
  /** Inserts or updates the canonical tool; returns the previous hash (undefined on first capture). */
  saveCanonical(server: string, tool: string, hash: string, definition: Record<string, unknown>): string | undefined;
  activePromotions(): Promotion[];
  promotion(server: string, tool: string): Promotion | undefined;
  /** Changes whenever a promotion is added, reverted or marked stale (by this process or another). */
  promotionsSignature(): string;
  promotionHistory(server?: string): Promotion[];
  /** Replaces the active promotion of the tool (the previous one is kept as reverted). */
  promote(p: { server: string; tool: string; description: string; candidateId?: string; canonicalHash: string; evaluation?: unknown; forced: boolean }): Promotion;
  /** Ends the active promotion; returns whether there was one. */
  revert(server: string, tool: string): boolean;
  markStale(id: number, reason: string): void;
  saveCandidate(c: Omit<StoredCandidate, 'createdAt'>): StoredCandidate;
  candidate(id: string): StoredCandidate | undefined;
  candidates(server: string, tool?: string): StoredCandidate[];
  savePrompts(prompts: Array<Omit<GoldenPrompt, 'createdAt'>>): GoldenPrompt[];
  prompts(server: string, tool?: string): GoldenPrompt[];
  deletePrompts(server: string, tool: string): number;
  recordRuns(runs: EvalRunRow[]): void;
  runs(filter: { batch?: string; server?: string; tool?: string }): EvalRunRow[];
  /** The newest batch id for a tool, if any. */
  latestBatch(server: string, tool: string): string | undefined;
}

interface PromotionRow {
  id: number;
  server: string;
  tool: string;
  description: string;
  candidate_id: string | null;
  canonical_hash: string;
  evaluation: string | null;
  forced: number;
  stale: number;
  stale_reason: string | null;
  promoted_at: number;
  reverted_at: number | null;
}

const MAX_DESCRIPTION = 4000;

export class SqliteOptimizeRepository implements OptimizeRepository {
  /** The stored hash of a tool, read for every tool of every listing (saveCanonical): prepared once. */
  private canonicalHash: Database.Statement | undefined;

  constructor(
    private readonly db: Database.Database,
    private readonly clock: () => number,
  ) {}

  canonical(server: string, tool: string): CanonicalTool | undefined {
    const row = this.db.prepare('SELECT * FROM optimize_canonical_tools WHERE server = ? AND tool = ?').get(server, tool) as Record<string, unknown> | undefined;
    return row ? toCanonical(row) : undefined;
  }

  canonicalTools(server?: string): CanonicalTool[] {
    const rows = server === undefined
      ? this.db.prepare('SELECT * FROM optimize_canonical_tools ORDER BY server, tool').all()
      : this.db.prepare('SELECT * FROM optimize_canonical_tools WHERE server = ? ORDER BY tool').all(server);
    return (rows as Array<Record<string, unknown>>).map(toCanonical);
  }

  saveCanonical(server: string, tool: string, hash: string, definition: Record<string, unknown>): string | undefined {
    // Every listing saves every tool: an unchanged one (nearly all) is only read, without a write lock.
    this.canonicalHash ??= this.db.prepare('SELECT hash FROM optimize_canonical_tools WHERE server = ? AND tool = ?').pluck();
    if (this.canonicalHash.get(server, tool) === hash) return hash;
    const now = this.clock();
    return this.db.transaction(() => {
      const previous = this.canonical(server, tool);
      if (previous?.hash === hash) return previous.hash;
      this.db
        .prepare(
          `INSERT INTO optimize_canonical_tools (server, tool, hash, definition, captured_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)
           ON CONFLICT (server, tool) DO UPDATE SET hash = excluded.hash, definition = excluded.definition, updated_at = excluded.updated_at`,
        )
        .run(server, tool, hash, JSON.stringify(definition), now, now);
      return previous?.hash;
    }).immediate();
  }

  activePromotions(): Promotion[] {
    return (this.db.prepare('SELECT * FROM optimize_promotions WHERE reverted_at IS NULL ORDER BY server, tool').all() as PromotionRow[]).map(toPromotion);
  }

  promotionsSignature(): string {
    const row = this.db.prepare('SELECT count(*) AS n, coalesce(max(id), 0) AS last, coalesce(sum(reverted_at IS NOT NULL), 0) AS reverted, coalesce(sum(stale), 0) AS stale FROM optimize_promotions').get() as Record<string, number>;
    return `${row.n}:${row.last}:${row.reverted}:${row.stale}`;
  }

  promotion(server: string, tool: string): Promotion | undefined {
    const row = this.db.prepare('SELECT * FROM optimize_promotions WHERE server = ? AND tool = ? AND reverted_at IS NULL').get(server, tool) as PromotionRow | undefined;
    return row ? toPromotion(row) : undefined;
  }

  promotionHistory(server?: string): Promotion[] {
    const rows = server === undefined
      ? this.db.prepare('SELECT * FROM optimize_promotions ORDER BY id').all()
      : this.db.prepare('SELECT * FROM optimize_promotions WHERE server = ? ORDER BY id').all(server);
    return (rows as PromotionRow[]).map(toPromotion);
  }

  promote(p: { server: string; tool: string; description: string; candidateId?: string; canonicalHash: string; evaluation?: unknown; forced: boolean }): Promotion {
    if (!p.description.trim() || p.description.length > MAX_DESCRIPTION) {
      throw new StoreError('invalid_input', `promotion of ${p.server}.${p.tool}: description must be 1 to ${MAX_DESCRIPTION} characters`);
    }
    const now = this.clock();
    return this.db.transaction(() => {
      this.db.prepare('UPDATE optimize_promotions SET reverted_at = ? WHERE server = ? AND tool = ? AND reverted_at IS NULL').run(now, p.server, p.tool);
      const info = this.db
        .prepare(
          `INSERT INTO optimize_promotions (server, tool, description, candidate_id, canonical_hash, evaluation, forced, promoted_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(p.server, p.tool, p.description, p.candidateId ?? null, p.canonicalHash, p.evaluation === undefined ? null : JSON.stringify(p.evaluation), p.forced ? 1 : 0, now);
      return toPromotion(this.db.prepare('SELECT * FROM optimize_promotions WHERE id = ?').get(info.lastInsertRowid) as PromotionRow);
    }).immediate();
  }

  revert(server: string, tool: string): boolean {
    return this.db.prepare('UPDATE optimize_promotions SET reverted_at = ? WHERE server = ? AND tool = ? AND reverted_at IS NULL').run(this.clock(), server, tool).changes > 0;
  }

  markStale(id: number, reason: string): void {
    this.db.prepare('UPDATE optimize_promotions SET stale = 1, stale_reason = ? WHERE id = ?').run(reason, id);
  }

  saveCandidate(c: Omit<StoredCandidate, 'createdAt'>): StoredCandidate {
    const createdAt = this.clock();
    this.db
      .prepare('INSERT INTO optimize_candidates (id, server, tool, description, example, source, lint, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
      .run(c.id, c.server, c.tool, c.description, c.example ?? null, c.source, JSON.stringify(c.lint), createdAt);
    return { ...c, createdAt };
  }

  candidate(id: string): StoredCandidate | undefined {
    const row = this.db.prepare('SELECT * FROM optimize_candidates WHERE id = ?').get(id) as Record<string, unknown> | undefined;
    return row ? toCandidate(row) : undefined;
  }

  candidates(server: string, tool?: string): StoredCandidate[] {
    const rows = tool === undefined
      ? this.db.prepare('SELECT * FROM optimize_candidates WHERE server = ? ORDER BY created_at, id').all(server)
      : this.db.prepare('SELECT * FROM optimize_candidates WHERE server = ? AND tool = ? ORDER BY created_at, id').all(server, tool);
    return (rows as Array<Record<string, unknown>>).map(toCandidate);
  }

  savePrompts(prompts: Array<Omit<GoldenPrompt, 'createdAt'>>): GoldenPrompt[] {
    const createdAt = this.clock();
    const insert = this.db.prepare(
      `INSERT INTO optimize_golden_prompts (id, server, tool, category, prompt, should_call, notes, split, source, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET category = excluded.category, prompt = excluded.prompt, should_call = excluded.should_call,
         notes = excluded.notes, split = excluded.split, source = excluded.source`,
    );
    this.db.transaction(() => {
      for (const p of prompts) {
        insert.run(p.id, p.server, p.tool, p.category, p.prompt, p.expectedBehavior.shouldCallTool ? 1 : 0, p.expectedBehavior.notes ?? null, p.split, p.source, createdAt);
      }
    }).immediate();
    return prompts.map((p) => ({ ...p, createdAt }));
  }

  prompts(server: string, tool?: string): GoldenPrompt[] {
    const rows = tool === undefined
      ? this.db.prepare('SELECT * FROM optimize_golden_prompts WHERE server = ? ORDER BY tool, id').all(server)
      : this.db.prepare('SELECT * FROM optimize_golden_prompts WHERE server = ? AND tool = ? ORDER BY id').all(server, tool);
    return (rows as Array<Record<string, unknown>>).map(toPrompt);
  }

  deletePrompts(server: string, tool: string): number {
    return this.db.prepare('DELETE FROM optimize_golden_prompts WHERE server = ? AND tool = ?').run(server, tool).changes;
  }

  recordRuns(runs: EvalRunRow[]): void {
    const now = this.clock();
    const insert = this.db.prepare(
      `INSERT INTO optimize_eval_runs (batch, server, tool, subject, prompt_id, repeat, backend, model, arm, tool_called, called_tool, correct, error, duration_ms, tokens, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.db.transaction(() => {
      for (const r of runs) {
        const x = r.result;
        insert.run(r.batch, r.server, r.tool, r.subject, r.promptId, r.repeat, r.backend, r.model, r.arm, x.toolCalled ? 1 : 0, x.calledTool ?? null, x.correct ? 1 : 0, x.error ?? null, x.durationMs, x.tokens ?? null, now);
      }
    }).immediate();
  }

  runs(filter: { batch?: string; server?: string; tool?: string }): EvalRunRow[] {
    const where: string[] = [];
    const args: string[] = [];
    if (filter.batch !== undefined) (where.push('batch = ?'), args.push(filter.batch));
    if (filter.server !== undefined) (where.push('server = ?'), args.push(filter.server));
    if (filter.tool !== undefined) (where.push('tool = ?'), args.push(filter.tool));
    const sql = `SELECT * FROM optimize_eval_runs ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY id`;
    return (this.db.prepare(sql).all(...args) as Array<Record<string, unknown>>).map(toRun);
  }

  latestBatch(server: string, tool: string): string | undefined {
    const row = this.db.prepare('SELECT batch FROM optimize_eval_runs WHERE server = ? AND tool = ? ORDER BY id DESC LIMIT 1').get(server, tool) as { batch: string } | undefined;
    return row?.batch;
  }
}

function toCanonical(row: Record<string, unknown>): CanonicalTool {
  return {
    server: row.server as string,
    tool: row.tool as string,
    hash: row.hash as string,
    definition: JSON.parse(row.definition as string) as Record<string, unknown>,
    capturedAt: row.captured_at as number,
    updatedAt: row.updated_at as number,
  };
}

function toPromotion(row: PromotionRow): Promotion {
  return {
    id: row.id,
    server: row.server,
    tool: row.tool,
    description: row.description,
    ...(row.candidate_id !== null && { candidateId: row.candidate_id }),
    canonicalHash: row.canonical_hash,
    ...(row.evaluation !== null && { evaluation: JSON.parse(row.evaluation) as unknown }),
    forced: row.forced === 1,
    stale: row.stale === 1,
    ...(row.stale_reason !== null && { staleReason: row.stale_reason }),
    promotedAt: row.promoted_at,
    ...(row.reverted_at !== null && { revertedAt: row.reverted_at }),
  };
}

function toCandidate(row: Record<string, unknown>): StoredCandidate {
  return {
    id: row.id as string,
    server: row.server as string,
    tool: row.tool as string,
    description: row.description as string,
    ...(row.example !== null && { example: row.example as string }),
    source: row.source as string,
    lint: JSON.parse(row.lint as string) as StoredCandidate['lint'],
    createdAt: row.created_at as number,
  };
}

function toPrompt(row: Record<string, unknown>): GoldenPrompt {
  return {
    id: row.id as string,
    server: row.server as string,
    tool: row.tool as string,
    category: row.category as PromptCategory,
    prompt: row.prompt as string,
    expectedBehavior: { shouldCallTool: row.should_call === 1, ...(row.notes !== null && { notes: row.notes as string }) },
    split: row.split as PromptSplit,
    source: row.source as string,
    createdAt: row.created_at as number,
  };
}

function toRun(row: Record<string, unknown>): EvalRunRow {
  return {
    batch: row.batch as string,
    server: row.server as string,
    tool: row.tool as string,
    subject: row.subject as string,
    promptId: row.prompt_id as string,
    repeat: row.repeat as number,
    backend: row.backend as string,
    model: row.model as string,
    arm: row.arm as string,
    result: {
      toolCalled: row.tool_called === 1,
      ...(row.called_tool !== null && { calledTool: row.called_tool as string }),
      correct: row.correct === 1,
      ...(row.error !== null && { error: row.error as string }),
      durationMs: row.duration_ms as number,
      ...(row.tokens !== null && { tokens: row.tokens as number }),
    },
  };
}
