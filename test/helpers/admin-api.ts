// Test helpers for the admin API: JSON requests to a real gateway, and a reader of its server-sent event streams
// (GET /api/activity, GET /api/optimize/events) that collects parsed events and can wait for one.
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
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  void (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        buffer += decoder.decode(value, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const type = /^event: (.*)$/m.exec(frame)?.[1];
          const data = /^data: (.*)$/m.exec(frame)?.[1];
          if (type && data) events.push({ type, data: JSON.parse(data) });
        }
      }
    } catch {
      // aborted by close()
    }
  })();
  return {
    events,
    next: (match, what, timeoutMs = 30_000) => waitFor(() => events.find(match), what, timeoutMs),
    close: () => abort.abort(),
  };
}
