// Owns definition pinning ("rug pull" protection): a tool's definition is pinned per server identity when
// first listed; a later listing with another definition puts the tool in the `changed` state, which is
// flagged (warn: listed with `_meta["switchboard/pinning"]`, one warn log) or withheld (strict: not listed,
// calls refused) until a person approves the new definition after seeing the diff. Pins live in the store.
import type { ServerConfig, PinningMode } from '../config/index.js';
import type { Logger } from '../logging/logger.js';
import { serverIdentity } from '../servers/identity.js';
import type { PinRepository, PinWrite, ToolPin } from '../store/index.js';
import type { Entry } from './entry.js';
import { changedPaths, definitionDiff, definitionHash, pinnedView } from './definition-hash.js';

/** The `_meta` key a flagged tool carries (warn mode). */
export const PINNING_META_KEY = 'switchboard/pinning';

export interface PinFlag {
  state: 'changed';
  server: string;
  tool: string;
  /** Hash of the pinned definition and of the one listed now. */
  pinnedHash: string;
  hash: string;
  /** What differs (paths of the definition). */
  changed: string[];
  /** The command that approves it. */
  approve: string;
}

/** What one listing of a server's tools looks like against its pins. */
export interface PinReview {
  /** Tools withheld from every listing (strict mode), by original name. */
  hidden: Map<string, PinFlag>;
  /** Tools in the changed state that stay listed (warn mode), by original name. */
  flagged: Map<string, PinFlag>;
}

/** A change waiting for approval, with what a person needs to judge it. */
export interface PendingChange {
  server: string;
  identity: string;
  tool: string;
  pinnedHash: string;
  hash: string;
  pinned: Entry;
  current: Entry;
  changed: string[];
  /** Per changed path, the pinned value (-) and the new one (+). */
  diff: string;
  seenAt: number;
}

const NO_REVIEW: PinReview = Object.freeze({ hidden: new Map(), flagged: new Map() }) as PinReview;

/**
 * A server's identity for pinning: command, args, cwd and env names (or URL), not the tool selection
 * (enabling another tool must not forget the pins of the others).
 */
export function pinIdentity(config: ServerConfig): string {
  return serverIdentity({ ...config, enabledTools: undefined, disabledTools: undefined });
}

export function approveCommand(server: string, tool?: string): string {
  const quote = (s: string) => (/^[A-Za-z0-9_.:-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);
  return `switchboard approve ${quote(server)}${tool === undefined ? '' : ` ${quote(tool)}`}`;
}

export interface DefinitionPinsOptions {
  repository: PinRepository;
  mode: PinningMode;
  log: Logger;
}

export class DefinitionPins {
  readonly mode: PinningMode;
  private readonly repository: PinRepository;
  private readonly log: Logger;
  /** Changes already logged by this process (server, identity, tool, hash): one warn line each. */
  private readonly warned = new Set<string>();
  private watchedGeneration: number | undefined;

  constructor(options: DefinitionPinsOptions) {
    this.repository = options.repository;
    this.mode = options.mode;
    this.log = options.log;
  }

  /**
   * Checks a server's canonical tools (as listed, before description overrides) against their pins:
   * pins the tools seen for the first time, records and logs changes. Never throws: a store failure is
   * logged and the listing is served unchecked.
   */
  review(server: string, config: ServerConfig | undefined, tools: readonly Entry[]): PinReview {
    if (this.mode === 'off' || !config || tools.length === 0) return NO_REVIEW;
    try {
      return this.check(server, pinIdentity(config), tools);
    } catch (error) {
      this.log.error({ server, err: (error as Error).message }, 'definition pins could not be read or written; this listing is served unchecked');
      return NO_REVIEW;
    }
  }

  private check(server: string, identity: string, tools: readonly Entry[]): PinReview {
    const pins = new Map(this.repository.pins(server, identity).map((p) => [p.tool, p]));
    const review: PinReview = { hidden: new Map(), flagged: new Map() };
    const writes: { pin: PinWrite[]; seen: Array<{ tool: string; seen: Omit<PinWrite, 'tool'> | undefined }> } = { pin: [], seen: [] };
    const seen = new Set<string>();
    for (const tool of tools) {
      const name = tool.name as string;
      if (seen.has(name)) continue; // a repeated name: the first one counts, as in the catalog
      seen.add(name);
      const hash = definitionHash(tool);
      const pin = pins.get(name);
      if (!pin) {
        writes.pin.push({ tool: name, hash, definition: pinnedView(tool) });
        continue;
      }
      if (pin.hash === hash) {
        if (pin.seen) writes.seen.push({ tool: name, seen: undefined }); // changed back
        continue;
      }
      if (pin.seen?.hash !== hash) writes.seen.push({ tool: name, seen: { hash, definition: pinnedView(tool) } });
      const flag: PinFlag = { state: 'changed', server, tool: name, pinnedHash: pin.hash, hash, changed: changedPaths(pin.definition, tool), approve: approveCommand(server, name) };
      this.warnOnce(identity, flag);
      (this.mode === 'strict' ? review.hidden : review.flagged).set(name, flag);
    }
    this.repository.record(server, identity, writes);
    return review;
  }

  private warnOnce(identity: string, flag: PinFlag): void {
    const key = `${flag.server}\u0000${identity}\u0000${flag.tool}\u0000${flag.hash}`;
    if (this.warned.has(key)) return;
    this.warned.add(key);
    const what = this.mode === 'strict' ? 'withheld from listings and calls until approved' : 'still listed (pinning: warn), flagged in _meta';
    this.log.warn(
      { server: flag.server, tool: flag.tool, changed: flag.changed, pinnedHash: flag.pinnedHash.slice(0, 12), hash: flag.hash.slice(0, 12) },
      `tool definition changed since it was pinned (${flag.changed.join(', ')}); ${what}. Review the diff and approve it with "${flag.approve}"`,
    );
  }

  /** Changes waiting for approval: of a server (one identity when given), of one tool when named. */
  pending(server: string, identity?: string, tool?: string): PendingChange[] {
    return this.repository
      .pins(server, identity)
      .filter((p): p is ToolPin & { seen: NonNullable<ToolPin['seen']> } => p.seen !== undefined && (tool === undefined || p.tool === tool))
      .map((p) => ({
        server: p.server,
        identity: p.identity,
        tool: p.tool,
        pinnedHash: p.hash,
        hash: p.seen.hash,
        pinned: p.definition,
        current: p.seen.definition,
        changed: changedPaths(p.definition, p.seen.definition, 50),
        diff: definitionDiff(p.definition, p.seen.definition),
        seenAt: p.seen.at,
      }));
  }

  /** Pins the definitions shown in `changes` (each only if it is still the one seen); returns those approved. */
  approve(changes: readonly PendingChange[]): PendingChange[] {
    const approved = changes.filter((c) => this.repository.approve(c.server, c.identity, c.tool, c.hash));
    for (const c of approved) this.log.info({ server: c.server, tool: c.tool, hash: c.hash.slice(0, 12) }, 'tool definition change approved and pinned');
    return approved;
  }

  /**
   * Calls `onChange` when another process (`switchboard approve`) approved something, checked every
   * `intervalMs` (one indexed read). Returns the stop function.
   */
  watch(intervalMs: number, onChange: () => void): () => void {
    this.watchedGeneration = this.repository.generation();
    const timer = setInterval(() => {
      try {
        const now = this.repository.generation();
        if (now === this.watchedGeneration) return;
        this.watchedGeneration = now;
        onChange();
      } catch (error) {
        this.log.debug({ err: (error as Error).message }, 'pin generation not read');
      }
    }, intervalMs);
    timer.unref();
    return () => clearInterval(timer);
  }
}

/** Warn mode: the flagged tools carry their pinning state in `_meta`; other tools are returned as they are. */
export function markFlagged(tools: Entry[], flagged: ReadonlyMap<string, PinFlag>): Entry[] {
  if (flagged.size === 0) return tools;
  return tools.map((tool) => {
    const flag = flagged.get(tool.name as string);
    if (!flag) return tool;
    const meta = tool._meta && typeof tool._meta === 'object' && !Array.isArray(tool._meta) ? (tool._meta as Record<string, unknown>) : {};
    return { ...tool, _meta: { ...meta, [PINNING_META_KEY]: { state: flag.state, changed: flag.changed, pinnedHash: flag.pinnedHash, hash: flag.hash, approve: flag.approve } } };
  });
}

/** The refusal a withheld tool's call gets (strict mode): what happened and how to approve. */
export function withheldMessage(exposed: string, flag: PinFlag): string {
  return (
    `Tool "${exposed}" is withheld: server "${flag.server}" changed its definition of "${flag.tool}" since it was pinned ` +
    `(${flag.changed.join(', ')}), and pinning is strict. A person must review the diff and approve it: ` +
    `"${flag.approve}" (or POST /api/pins/approve {"server": ${JSON.stringify(flag.server)}, "tool": ${JSON.stringify(flag.tool)}} with an admin token). Until then it cannot be called.`
  );
}

/** A tools/call answer for a withheld tool: a tool error the model and the person can read, nothing forwarded. */
export function withheldResult(exposed: string, flag: PinFlag): Record<string, unknown> {
  return {
    isError: true,
    content: [{ type: 'text', text: withheldMessage(exposed, flag) }],
    _meta: { [PINNING_META_KEY]: { state: flag.state, server: flag.server, tool: flag.tool, changed: flag.changed, approve: flag.approve } },
  };
}
