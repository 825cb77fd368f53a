// Owns when `serve` writes recent-servers.json (recent-servers.ts), what the next start picks its
// early servers from: never on a call's path. A look every CHECK_EVERY_MS takes the in-memory
// snapshot of when each configured server was last called; it writes once the snapshot has stopped
// changing for one interval (the calls have settled, so a stdio client's first calls never share the
// moment with a file read and an fsync), or when calls kept coming for MAX_DEFER_MS. At shutdown it
// writes only what changed since the last write. An unchanged snapshot, and a file that would come
// out the same, are never written again.
import type { Logger } from '../logging/logger.js';
import { writeRecentServers } from './recent-servers.js';

/** How often the snapshot is looked at. */
const CHECK_EVERY_MS = 3_000;
/** Calls that never pause are written after this long anyway (for a run that ends abruptly). */
const MAX_DEFER_MS = 60_000;

/** What the snapshot is read from (the Gateway has this shape). */
export interface CalledServersSource {
  readonly pool: { keys(): Iterable<string>; identity(key: string): string | undefined };
  readonly calls: { lastCalledAt(server: string): number | undefined };
}

type Snapshot = ReadonlyMap<string, number>;

export interface CalledServersKeeperOptions {
  dataDir: string;
  log: Logger;
  /** Clock for the deferral limit (tests). */
  now?: () => number;
}

export class CalledServersKeeper {
  /** What was last written this run; undefined: nothing yet. */
  private written: Snapshot | undefined;
  /** The snapshot of the previous look: a change since then means calls are still coming. */
  private previous: Snapshot | undefined;
  /** When the first unwritten change was seen. */
  private pendingSince: number | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly now: () => number;

  constructor(
    private readonly source: CalledServersSource,
    private readonly options: CalledServersKeeperOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  /** Looks every CHECK_EVERY_MS; the timer never keeps the process alive. */
  start(everyMs = CHECK_EVERY_MS): void {
    this.timer ??= setInterval(() => this.check(), everyMs);
    this.timer.unref();
  }

  /** One look: writes when the snapshot is unwritten and settled (or deferred too long). Returns whether it wrote. */
  check(): boolean {
    const snapshot = this.snapshot();
    const settled = this.previous !== undefined && sameSnapshot(snapshot, this.previous);
    this.previous = snapshot;
    if (this.written !== undefined && sameSnapshot(snapshot, this.written)) {
      this.pendingSince = undefined;
      return false;
    }
    this.pendingSince ??= this.now();
    if (!settled && this.now() - this.pendingSince < MAX_DEFER_MS) return false;
    return this.write(snapshot);
  }

  /** At shutdown (before the pool closes: it knows the identities): stops looking, writes what changed. */
  flush(): boolean {
    clearInterval(this.timer);
    this.timer = undefined;
    const snapshot = this.snapshot();
    if (this.written !== undefined && sameSnapshot(snapshot, this.written)) return false;
    return this.write(snapshot);
  }

  private snapshot(): Map<string, number> {
    const called = new Map<string, number>();
    for (const key of this.source.pool.keys()) {
      const identity = this.source.pool.identity(key);
      const at = identity === undefined ? undefined : this.source.calls.lastCalledAt(key);
      if (identity !== undefined && at !== undefined) called.set(identity, Math.max(at, called.get(identity) ?? 0));
    }
    return called;
  }

  private write(snapshot: Snapshot): boolean {
    // Also after a failure: it is tried again when the snapshot next changes, not at every look.
    this.written = snapshot;
    this.pendingSince = undefined;
    try {
      return writeRecentServers(this.options.dataDir, snapshot);
    } catch (error) {
      this.options.log.warn({ err: (error as Error).message }, 'could not write recent-servers.json; the next start begins with no server started early');
      return false;
    }
  }
}

function sameSnapshot(a: Snapshot, b: Snapshot): boolean {
  if (a.size !== b.size) return false;
  for (const [identity, at] of a) if (b.get(identity) !== at) return false;
  return true;
}
