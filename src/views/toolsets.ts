// Owns toolsets as a session sees them: saving, equipping and unequipping (one at a time, persisted,
// so the equipped set survives a restart), and which tools a toolset makes visible right now, with
// what is missing and why.
import type { Catalog, Entry } from '../catalog/catalog.js';
import type { Toolset, ToolReference, ToolsetRepository } from '../store/index.js';
import { checkReference, parseReference, type ToolReferenceInput } from './toolset-refs.js';

export interface ResolvedToolset {
  name: string;
  description?: string;
  /** Tools visible now, under their exposed names, as the server gives them. */
  tools: Entry[];
  /** References that cannot be served now, and why. */
  missing: Array<{ server: string; tool: string; reason: string }>;
}

export class ToolsetBusyError extends Error {}

export class ToolsetService {
  private queue: Promise<unknown> = Promise.resolve();
  private pending = 0;

  constructor(
    private readonly repository: ToolsetRepository,
    /** Tells every toolset-mode session that its tool list changed. */
    private readonly onEquipChanged: () => void,
  ) {}

  list(): Toolset[] {
    return this.repository.list();
  }

  get(name: string): Toolset | undefined {
    return this.repository.get(name);
  }

  active(): string | undefined {
    return this.repository.active();
  }

  /**
   * Saves a toolset after checking every reference against the catalog (all or nothing). A referenced
   * server not listed yet (still starting) is waited for first, so its tools are checked rather than
   * called missing; one that fails to list cannot be checked, and its references are kept.
   */
  async build(input: { name: string; description?: string; tools: ToolReferenceInput[] }, catalog: Catalog, serverKeys: readonly string[]): Promise<Toolset> {
    const references = input.tools.map((ref) => parseReference(ref, serverKeys));
    const referenced = new Set(references.map((ref) => ref.server));
    await catalog.ensure(serverKeys.filter((key) => referenced.has(key)));
    return this.serialized(() => {
      references.forEach((parsed, i) => checkReference(parsed, input.tools[i], catalog, serverKeys));
      const unique = dedupe(references);
      const saved = this.repository.save({ name: input.name, description: input.description, tools: unique });
      if (this.repository.active() === input.name) this.onEquipChanged();
      return saved;
    });
  }

  delete(name: string): Promise<boolean> {
    return this.serialized(() => {
      const wasActive = this.repository.active() === name;
      const deleted = this.repository.delete(name);
      if (deleted && wasActive) this.onEquipChanged();
      return deleted;
    });
  }

  /** Equips a saved toolset: persisted first, then every toolset session is told once. */
  equip(name: string): Promise<Toolset> {
    return this.serialized(() => {
      const toolset = this.repository.get(name);
      if (!toolset) throw new Error(`No toolset named "${name}". Saved toolsets: ${this.repository.list().map((t) => t.name).join(', ') || 'none'}.`);
      this.repository.setActive(name);
      this.onEquipChanged();
      return toolset;
    });
  }

  unequip(): Promise<string | undefined> {
    return this.serialized(() => {
      const previous = this.repository.active();
      if (previous === undefined) return undefined;
      this.repository.setActive(undefined);
      this.onEquipChanged();
      return previous;
    });
  }

  /** What a toolset shows now: its tools under their exposed names, and the missing ones with reasons. */
  resolve(name: string | undefined, catalog: Catalog): ResolvedToolset | undefined {
    const toolset = name === undefined ? undefined : this.repository.get(name);
    if (!toolset) return undefined;
    const tools: Entry[] = [];
    const missing: ResolvedToolset['missing'] = [];
    const byExposed = new Map(catalog.tools().map((t) => [t.name as string, t]));
    for (const ref of toolset.tools) {
      const listing = catalog.listing(ref.server);
      const exposed = catalog.toolTable.exposedName(ref.server, ref.tool);
      const tool = exposed === undefined ? undefined : byExposed.get(exposed);
      if (tool) tools.push(tool);
      else missing.push({ ...ref, reason: missingReason(ref.server, listing.error, catalog.listedAll([ref.server])) });
    }
    return { name: toolset.name, ...(toolset.description && { description: toolset.description }), tools, missing };
  }

  /**
   * Runs changes one at a time: a second equip waits for the first; it never sees a half-done one.
   * A change that throws leaves the store as it was (each one is a single transaction or none).
   */
  private serialized<T>(change: () => T): Promise<T> {
    if (this.pending > 8) return Promise.reject(new ToolsetBusyError('Toolset changes are queued too deep; try again in a moment.'));
    this.pending++;
    const run = this.queue.then(change).finally(() => this.pending--);
    this.queue = run.catch(() => undefined);
    return run;
  }
}

function dedupe(references: ToolReference[]): ToolReference[] {
  const seen = new Set<string>();
  return references.filter((r) => {
    const key = `${r.server}\u0000${r.tool}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Why a toolset's tool is not there: its server failed, has not listed yet, or lists no such tool. */
function missingReason(server: string, error: string | undefined, listed: boolean): string {
  if (error) return `server "${server}" is unavailable: ${error}`;
  if (!listed) return `server "${server}" has not listed its tools yet (it is starting, or starts on first use)`;
  return `server "${server}" does not list it now`;
}
