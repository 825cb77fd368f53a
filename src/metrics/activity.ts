// Owns the activity feed: what the gateway just did, for live views (the admin API's
// /api/activity stream, the TUI and the dashboard). Finished tool calls and the server requests a
// call caused (sampling, elicitation, roots), each with its correlation id. A bounded ring of the
// newest events is kept in memory so a viewer that connects sees the recent past; nothing here is
// durable (the store keeps calls). Publishing costs one array write when nobody listens.
import type { CallRecord } from '../store/types.js';

/** A finished tool call (the row the store keeps, plus the kind). */
export interface CallActivity {
  kind: 'call';
  at: number;
  server: string;
  tool: string;
  session?: string;
  correlationId?: string;
  status: CallRecord['outcome'];
  durationMs: number;
  error?: string;
}

/** A request a server sent to a client while one of its calls ran (or on its own). */
export interface ServerRequestActivity {
  kind: 'server-request';
  at: number;
  server: string;
  method: string;
  session?: string;
  correlationId?: string;
}

export type Activity = CallActivity | ServerRequestActivity;
export type ActivityListener = (event: Activity) => void;

/** Where activity goes (the narrow port the gateway's parts publish through). */
export interface ActivitySink {
  publish(event: ServerRequestActivity): void;
}

export const ACTIVITY_KEPT = 500;
const ERROR_CHARS = 300;

/** What the ring holds: a call's own record (no copy on the call's path) or a server request. */
type Entry = CallRecord | ServerRequestActivity;

export class ActivityFeed implements ActivitySink {
  private readonly ring: Entry[] = [];
  private next = 0;
  private readonly listeners = new Set<ActivityListener>();

  constructor(private readonly kept = ACTIVITY_KEPT) {}

  publish(event: ServerRequestActivity): void {
    this.keep(event);
    if (this.listeners.size) this.tell(event);
  }

  /** A finished call: kept as its record, turned into an event only for viewers. */
  publishCall(call: CallRecord): void {
    this.keep(call);
    if (this.listeners.size) this.tell(asActivity(call));
  }

  /** The newest `limit` events, oldest first. */
  recent(limit = this.kept): Activity[] {
    const ordered = this.ring.length < this.kept ? this.ring.slice() : [...this.ring.slice(this.next), ...this.ring.slice(0, this.next)];
    const wanted = limit >= ordered.length ? ordered : ordered.slice(ordered.length - Math.max(0, limit));
    return wanted.map(asActivity);
  }

  /** Calls `listener` for every event from now on; returns the function that stops it. */
  subscribe(listener: ActivityListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get listening(): number {
    return this.listeners.size;
  }

  private keep(entry: Entry): void {
    if (this.ring.length < this.kept) this.ring.push(entry);
    else this.ring[this.next] = entry;
    this.next = (this.next + 1) % this.kept;
  }

  private tell(event: Activity): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        this.listeners.delete(listener); // a viewer that fails to take an event is gone
      }
    }
  }
}

function asActivity(entry: Entry): Activity {
  if ('kind' in entry) return entry;
  return {
    kind: 'call',
    at: entry.startedAt,
    server: entry.server,
    tool: entry.tool,
    ...(entry.session !== undefined && { session: entry.session }),
    ...(entry.correlationId !== undefined && { correlationId: entry.correlationId }),
    status: entry.outcome,
    durationMs: entry.durationMs,
    ...(entry.errorMessage !== undefined && { error: entry.errorMessage.slice(0, ERROR_CHARS) }),
  };
}

/** Which events a viewer wants (all fields optional; a call matches on server, tool and status). */
export interface ActivityFilter {
  server?: string;
  tool?: string;
  status?: string;
  correlationId?: string;
}

export function matchesActivity(event: Activity, filter: ActivityFilter): boolean {
  if (filter.server !== undefined && event.server !== filter.server) return false;
  if (filter.correlationId !== undefined && event.correlationId !== filter.correlationId) return false;
  if (filter.tool !== undefined && (event.kind !== 'call' || event.tool !== filter.tool)) return false;
  if (filter.status !== undefined && (event.kind !== 'call' || event.status !== filter.status)) return false;
  return true;
}
