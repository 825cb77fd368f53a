// Test helpers for the admin API: JSON requests to a real gateway, and a reader of its server-sent event streams
// (GET /api/activity, GET /api/optimize/events) that collects parsed events and can wait for one.
import { frameData, readSseFrames } from '../../src/http/sse-frames.js';
import { waitFor } from './gateway.js';

export interface ApiAnswer<T = Record<string, unknown>> {
  status: number;
  body: T;
}

export async function api<T = Record<string, unknown>>(url: string, method: string, path: string, body?: unknown): Promise<ApiAnswer<T>> {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON (a Markdown report): keep the text
  }
  return { status: response.status, body: parsed as T };
}

export interface SseEvent {
  type: string;
  data: unknown;
}

export interface EventReader {
  events: SseEvent[];
  /** Resolves with the first event (already received or coming) that matches. */
  next(match: (event: SseEvent) => boolean, what: string, timeoutMs?: number): Promise<SseEvent>;
  close(): void;
}

export async function readEvents(url: string, path: string): Promise<EventReader> {
  const abort = new AbortController();
  const response = await fetch(`${url}${path}`, { signal: abort.signal });
  if (!response.ok || !response.body) throw new Error(`${path} answered ${response.status}`);
  const events: SseEvent[] = [];
  const body = response.body;
  void readSseFrames(body, (type, data) => void events.push({ type, data: frameData(data) })).catch(() => undefined); // aborted by close()
  return {
    events,
    next: (match, what, timeoutMs = 30_000) => waitFor(() => events.find(match), what, timeoutMs),
    close: () => abort.abort(),
  };
}
