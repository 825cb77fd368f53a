// Owns the merged catalog for one capability profile: every server's tools, prompts, resources and
// resource templates as listed, the exposed-name tables (tools and prompts are namespaced), resource
// ownership by URI, and change detection when a server re-lists.
import { EventEmitter } from 'node:events';
import { moduleLogger } from '../logging/logger.js';
import type { ServerPool } from '../servers/pool.js';
import type { Connection, ListKind } from '../servers/connection.js';
import type { CapabilityProfile } from '../servers/profile.js';
import { serverIdentity } from '../servers/identity.js';
import type { CatalogRepository } from '../store/index.js';
import type { Entry, ServerListing } from './entry.js';
import { exposeNamed, firstOwnerResources, nameTableOf, templateMatchers, type ResourceTemplateMatcher } from './merge.js';
import { buildNameTable, type NameTable, type NamedEntry } from './naming.js';
import { repairNamed, repairTools, selectTools } from './repair.js';
import type { DescriptionOverlay } from './overlay.js';
import { markFlagged, type DefinitionPins, type PinFlag } from './pinning.js';

export type { Entry, ServerListing } from './entry.js';
export const LIST_KINDS: readonly ListKind[] = ['tools', 'prompts', 'resources', 'resourceTemplates'];

export interface CatalogOptions {
  /** Where listings persist, with change tracking; none: memory only. */
  repository?: CatalogRepository;
  /** Serve a cached listing instead of starting a server that is not running yet (or one running, not listed yet: see fromCache). */
  lazy?: boolean;
  /** Description overrides and promotions, applied to every listing of tools (see overlay.ts). */
  overlay?: DescriptionOverlay;
  /** Definition pinning: changed tools are flagged or withheld (see pinning.ts). */
  pins?: DefinitionPins;
}

export interface NamingSettings {
  separator: string;
  budget: number;
}

export interface CatalogEvents {
  changed: [change: { server: string; kinds: ListKind[] }];
}

/** How long a live re-listing of a server served from the cache waits at most for its requests in flight. */
const RELIST_WAIT_MS = 1000;

const EMPTY: ServerListing = Object.freeze({ tools: [], prompts: [], resources: [], resourceTemplates: [], warnings: [] }) as ServerListing;

export class Catalog extends EventEmitter<CatalogEvents> {
  private readonly listings = new Map<string, ServerListing>();
  private readonly pending = new Map<string, Promise<void>>();
  private toolNames: NameTable | undefined;
  private promptNames: NameTable | undefined;
  private templates: ResourceTemplateMatcher[] | undefined;
  /** Merged lists, built once per change (tools/list is a hot path). */
  private merged: Partial<Record<ListKind, Entry[]>> = {};
  private readonly log = moduleLogger('catalog');
  /** Each server's tools as listed, before the description overlay. */
  private readonly canonicalTools = new Map<string, Entry[]>();
  /** Every tool a server listed at its last listing, before enabledTools / disabledTools (kept across restarts). */
  private readonly discoveredTools = new Map<string, Entry[]>();
  /** Servers still on their first listing when a client was answered without them: their arrival is announced. */
  private readonly owed = new Set<string>();
  /** Tools withheld by strict pinning, per server, by original name. */
  private readonly withheldTools = new Map<string, Map<string, PinFlag>>();
  /** Exposed names as they would be with the withheld tools listed (built only to explain a refused call). */
  private fullToolNames: NameTable | undefined;

  constructor(
    private readonly pool: ServerPool,
    readonly profile: CapabilityProfile,
    private readonly naming: NamingSettings,
    private readonly options: CatalogOptions = {},
  ) {
    super();
  }

  /**
   * Lists every given server not listed yet (concurrently). A lazy catalog takes a server from the
   * cache of its last live listing: without starting it when it is not running, and when it is
   * running (started early) re-lists it live just after, so that what waits now (a session's first
   * call) does not wait for the server's listing. Failures are recorded, never thrown.
   */
  async ensure(keys: string[] = this.pool.keys()): Promise<void> {
    const missing = keys.filter((k) => !this.listings.has(k));
    const live = missing.filter((k) => !this.fromCache(k));
    if (live.length < missing.length) this.invalidate();
    await Promise.all(live.map((k) => this.refresh(k, LIST_KINDS, { quiet: true })));
  }

  /**
   * Like ensure, but returns after `boundMs` at the latest: a client's listing never waits on the
   * slowest server. Servers still on their first listing then are left out of that answer and
   * announced (`changed`, so clients hear list_changed) when they arrive; later listings do not
   * wait for them again. Returns the servers left out.
   */
  async ensureWithin(keys: string[] = this.pool.keys(), boundMs: number): Promise<string[]> {
    if (this.listedAll(keys)) return [];
    // A server already announced as coming is not waited for again while its first listing runs.
    const waited = keys.filter((k) => !(this.owed.has(k) && this.pending.has(k)));
    const done = this.ensure(waited).then(() => false);
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), boundMs)));
    const late = await Promise.race([done, bound]);
    clearTimeout(timer);
    const missing = keys.filter((k) => !this.listings.has(k));
    if (late) for (const key of missing) this.owed.add(key);
    return missing;
  }

  /**
   * True when every given server (default: every enabled one) is listed: ensureWithin would not
   * wait. Every call of a session asks this first, so it is synchronous and allocates nothing.
   */
  listedAll(keys?: readonly string[]): boolean {
    if (keys) return keys.every((k) => this.listings.has(k));
    return this.pool.everyKey((k) => this.listings.has(k));
  }

  /**
   * Storage key of a server's listing: per capability profile, since servers list per client, and
   * per server identity (`#<hash>` of command, args, env, URL), since another config may give the
   * same key to another server.
   */
  storageKey(key: string, profile: CapabilityProfile = this.profile): string {
    const config = this.pool.config(key);
    const base = profile.label ? `${key} [${profile.label}]` : key;
    return config ? `${base} #${serverIdentity(config)}` : base;
  }

  private fromCache(key: string): boolean {
    const repository = this.options.repository;
    if (!this.options.lazy || !repository) return false;
    const connection = this.pool.connection(key, this.profile);
    if (!connection) return false;
    // A running server is taken from the cache too (one started early, not listed yet) and re-listed
    // live just after (below); not when a live listing is under way, nor under strict pinning (a
    // definition changed since the cache must be withheld before a call reaches it).
    const running = connection.running;
    if (running && (this.pending.has(key) || this.options.pins?.mode === 'strict')) return false;
    // Only this profile's own cache: servers list different tools for different clients.
    const id = this.storageKey(key);
    const cached = LIST_KINDS.map((kind) => repository.loadListing(id, kind));
    if (cached.some((c) => c === undefined)) return false;
    const [canonical, prompts, resources, resourceTemplates] = cached as Entry[][];
    const tools = this.overlaid(key, canonical);
    this.listings.set(key, { tools, prompts, resources, resourceTemplates, warnings: [], cached: true, listedAt: new Date(repository.listedAt(id) ?? Date.now()) });
    if (running) this.relistSoon(connection);
    return true;
  }

  /**
   * Re-lists a server live through `connection` once what was sent to it meanwhile is answered (a
   * session's first call, which the server then serves before its listing), RELIST_WAIT_MS at the
   * latest; clients hear of a difference (list_changed). Only a listing still cached and not being
   * re-read already, unless `always` (a reconnect, a failed listing); nothing once the connection
   * stopped or was released. The wait starts a turn later: a request that waited for the server's
   * start is sent by then (its way from the session to the connection takes no macrotask).
   */
  relistSoon(connection: Connection, always = false): void {
    const key = connection.key;
    const relist = () => {
      if (!connection.running || !this.pool.connections(key).includes(connection)) return;
      if (!always && (!this.listings.get(key)?.cached || this.pending.has(key))) return;
      void this.refresh(key);
    };
    setImmediate(() => connection.whenIdle(relist, RELIST_WAIT_MS));
  }

  /**
   * Answers a lookup that found nothing in the tables now (an exposed name, a resource's owner) once
   * the servers left out of a bounded listing (still starting) are listed: as soon as one of them
   * makes it succeed, or undefined once all of them are listed without it (at once when every
   * server was listed already). A hung server delays only what nobody else lists. Resource lookups
   * stop here: an unlisted URI must not start every server a lazy catalog took from the cache.
   */
  lookupWhenListed<T>(lookup: () => T | undefined): Promise<T | undefined> {
    const unlisted = this.pool.keys().filter((key) => !this.listings.has(key));
    if (unlisted.length === 0) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      let left = unlisted.length;
      for (const key of unlisted) {
        void this.ensure([key]).then(() => {
          const found = lookup();
          if (found !== undefined || --left === 0) resolve(found);
        });
      }
    });
  }

  /**
   * A lookup the tables do not answer now: answered once a server still starting makes it succeed,
   * or, while some listings came from the cache (stale when a tool was added since the last run),
   * after those servers are listed live. It does not look in the tables first: callers do (a
   * synchronous lookup), so a forwarded request whose target is listed never comes here.
   */
  async lookupLate<T>(lookup: () => T | undefined): Promise<T | undefined> {
    const found = await this.lookupWhenListed(lookup);
    if (found !== undefined) return found;
    const cached = this.cachedServers();
    if (cached.length === 0) return undefined;
    await Promise.all(cached.map((key) => this.refresh(key)));
    return lookup();
  }

  /** An exposed tool or prompt name the tables do not hold now (see lookupLate). */
  resolveLate(kind: 'tools' | 'prompts', name: string): Promise<NamedEntry | undefined> {
    return this.lookupLate(() => this.nameTable(kind).resolve(name));
  }

  /** Servers whose listing came from the cache (not listed live for this catalog yet). */
  cachedServers(): string[] {
    return this.ordered().filter(([, listing]) => listing.cached).map(([key]) => key);
  }

  listing(key: string): ServerListing {
    return this.listings.get(key) ?? EMPTY;
  }

  /** Drops a server (removed from config or restarting); listeners hear about it. */
  forget(key: string): void {
    const previous = this.listings.get(key);
    if (!previous) return;
    this.listings.delete(key);
    this.canonicalTools.delete(key);
    this.owed.delete(key);
    this.withheldTools.delete(key);
    this.invalidate();
    const kinds = LIST_KINDS.filter((k) => previous[k].length > 0);
    if (kinds.length) this.emit('changed', { server: key, kinds });
  }

  /**
   * Re-lists one server (all kinds, or the given ones). Concurrent refreshes of a server are
   * coalesced. `quiet`: a first listing made because a client asked for the list (it is getting
   * the result now) is not announced as a change.
   */
  refresh(key: string, kinds: readonly ListKind[] = LIST_KINDS, options: { quiet?: boolean } = {}): Promise<void> {
    const running = this.pending.get(key);
    if (running) return running.then(() => (options.quiet && this.listings.has(key) ? undefined : this.refresh(key, kinds, options)));
    const job = this.list(key, kinds, options.quiet === true).finally(() => this.pending.delete(key));
    this.pending.set(key, job);
    return job;
  }

  private async list(key: string, kinds: readonly ListKind[], quiet: boolean): Promise<void> {
    const connection = this.pool.connection(key, this.profile);
    if (!connection) return;
    const first = !this.listings.has(key);
    const previous = this.listings.get(key) ?? EMPTY;
    const next: ServerListing = { ...previous, warnings: [], error: undefined };
    try {
      await connection.start();
      for (const kind of kinds) {
        const raw = await connection.listAll(kind);
        const repaired = kind === 'tools' ? repairTools(key, raw) : repairNamed(key, kindLabel(kind), kind === 'resourceTemplates' ? 'uriTemplate' : kind === 'resources' ? 'uri' : 'name', raw);
        if (kind === 'tools') this.discoveredTools.set(key, repaired.items);
        next[kind] = kind === 'tools' ? selectTools(repaired.items, connection.config) : repaired.items;
        next.warnings.push(...repaired.warnings);
      }
      // Stopped while listing (released): what was read may be partial; keep the last listing.
      if (connection.state === 'stopped') return;
      next.listedAt = new Date();
      next.cached = false;
      for (const warning of next.warnings) this.log.warn({ server: key }, warning);
      this.persist(key, next, kinds);
      if (kinds.includes('tools')) next.tools = this.overlaid(key, next.tools);
    } catch (error) {
      // Stopped while listing (released: no client needs it, or removed): keep the last listing.
      if (connection.state === 'stopped') return;
      next.error = (error as Error).message;
      for (const kind of LIST_KINDS) next[kind] = [];
      this.canonicalTools.set(key, []);
      this.withheldTools.delete(key);
    }
    if (!this.pool.has(key)) return; // removed while listing
    this.listings.set(key, next);
    // A client answered without this server (it was still starting) hears of it now.
    const owed = this.owed.delete(key);
    const changed = LIST_KINDS.filter((k) => JSON.stringify(previous[k]) !== JSON.stringify(next[k]));
    if (changed.length) {
      this.invalidate();
      if (!(quiet && first) || owed) this.emit('changed', { server: key, kinds: changed });
    }
  }

  /**
   * Remembers a server's canonical tools and returns what clients see: checked against their pinned
   * definitions (withheld or flagged when changed), then the overlay applied.
   */
  private overlaid(key: string, canonical: Entry[]): Entry[] {
    this.canonicalTools.set(key, canonical);
    const review = this.options.pins?.review(key, this.pool.config(key), canonical);
    if (review?.hidden.size) this.withheldTools.set(key, review.hidden);
    else this.withheldTools.delete(key);
    const visible = review?.hidden.size ? canonical.filter((t) => !review.hidden.has(t.name as string)) : canonical;
    const overlay = this.options.overlay;
    let tools = visible;
    if (overlay) {
      try {
        tools = overlay.apply(key, visible);
      } catch (error) {
        this.log.error({ server: key, err: (error as Error).message }, 'description overrides could not be applied; serving the canonical descriptions');
      }
    }
    return review ? markFlagged(tools, review.flagged) : tools;
  }

  /** Every tool withheld by strict pinning now, in server order. */
  withheldList(): PinFlag[] {
    return this.ordered().flatMap(([key]) => [...(this.withheldTools.get(key)?.values() ?? [])]);
  }

  /**
   * A tool withheld by strict pinning, by original name on a server, or (server omitted) by the exposed
   * name it has when listed; undefined when the tool is not withheld.
   */
  withheld(name: string, server?: string): PinFlag | undefined {
    if (this.withheldTools.size === 0) return undefined;
    if (server !== undefined) return this.withheldTools.get(server)?.get(name);
    this.fullToolNames ??= buildNameTable(
      this.ordered().flatMap(([serverKey]) => (this.canonicalTools.get(serverKey) ?? []).map((e) => ({ serverKey, originalName: e.name as string }))),
      { separator: this.naming.separator, budget: this.naming.budget, prefix: true },
    );
    const entry = this.fullToolNames.resolve(name);
    return entry && this.withheldTools.get(entry.serverKey)?.get(entry.originalName);
  }

  /** Every tool the server listed last, hidden ones (enabledTools / disabledTools) included; undefined before its first listing. */
  discovered(key: string): Entry[] | undefined {
    return this.pool.has(key) ? this.discoveredTools.get(key) : undefined;
  }

  /** The server's tools as it listed them (no overrides), if listed. */
  canonical(key: string): Entry[] | undefined {
    return this.listings.has(key) ? this.canonicalTools.get(key) : undefined;
  }

  /** Re-applies the overlay (overrides or promotions changed); listeners hear of servers whose tools changed. */
  reapplyOverlay(servers: readonly string[] = [...this.listings.keys()]): void {
    for (const key of servers) {
      const listing = this.listings.get(key);
      const canonical = this.canonicalTools.get(key);
      if (!listing || !canonical) continue;
      const tools = this.overlaid(key, canonical);
      if (JSON.stringify(tools) === JSON.stringify(listing.tools)) continue;
      this.listings.set(key, { ...listing, tools });
      this.invalidate();
      this.emit('changed', { server: key, kinds: ['tools'] });
    }
  }

  /** Saves a live listing; the store compares content hashes and keeps an audit row per change. */
  private persist(key: string, listing: ServerListing, kinds: readonly ListKind[]): void {
    const repository = this.options.repository;
    if (!repository) return;
    const id = this.storageKey(key);
    try {
      for (const kind of kinds) {
        const change = repository.saveListing(id, kind, listing[kind]);
        if (change.added.length || change.updated.length || change.removed.length) {
          this.log.info({ server: id, kind, added: change.added, updated: change.updated, removed: change.removed }, 'catalog changed');
        }
      }
    } catch (error) {
      this.log.error({ server: id, err: (error as Error).message }, 'could not save the listing; serving it from memory');
    }
  }

  private invalidate(): void {
    this.toolNames = undefined;
    this.fullToolNames = undefined;
    this.promptNames = undefined;
    this.templates = undefined;
    this.merged = {};
  }

  private ordered(): Array<[string, ServerListing]> {
    return this.pool.keys().flatMap((k) => {
      const listing = this.listings.get(k);
      return listing ? [[k, listing] as [string, ServerListing]] : [];
    });
  }

  get toolTable(): NameTable {
    return (this.toolNames ??= nameTableOf(this.ordered(), 'tools', this.naming));
  }

  get promptTable(): NameTable {
    return (this.promptNames ??= nameTableOf(this.ordered(), 'prompts', this.naming));
  }

  /** The exposed names of tools or prompts (a call names one of either kind). */
  nameTable(kind: 'tools' | 'prompts'): NameTable {
    return kind === 'tools' ? this.toolTable : this.promptTable;
  }

  /** Every tool under its exposed name; the original name goes into `title` when the tool has none. */
  tools(): Entry[] {
    return (this.merged.tools ??= exposeNamed(this.ordered(), 'tools', this.toolTable));
  }

  prompts(): Entry[] {
    return (this.merged.prompts ??= exposeNamed(this.ordered(), 'prompts', this.promptTable));
  }

  /** Resources of every server; a URI listed by two servers belongs to the first. */
  resources(): Entry[] {
    return (this.merged.resources ??= firstOwnerResources(this.ordered()));
  }

  resourceTemplates(): Entry[] {
    return (this.merged.resourceTemplates ??= this.ordered().flatMap(([, listing]) => listing.resourceTemplates));
  }

  /** Which server answers for a resource URI: a listed resource, then a matching template. */
  resourceOwner(uri: string): string | undefined {
    for (const [key, listing] of this.ordered()) if (listing.resources.some((r) => r.uri === uri)) return key;
    this.templates ??= templateMatchers(this.ordered());
    return this.templates.find((t) => t.template.match(uri) !== null)?.server;
  }

  /** Which server owns a resource-template reference (completion). */
  templateOwner(uriTemplate: string): string | undefined {
    return this.ordered().find(([, listing]) => listing.resourceTemplates.some((t) => t.uriTemplate === uriTemplate))?.[0];
  }
}

function kindLabel(kind: ListKind): string {
  return kind === 'resourceTemplates' ? 'resource template' : kind.slice(0, -1);
}
