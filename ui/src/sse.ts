// Owns reading a server-sent event stream with fetch (EventSource cannot send the bearer token): parses
// `event:`/`data:` frames, reconnects after a drop with a growing pause, and stops when told to.
import { authHeaders, ApiError } from './api';

export interface StreamHandlers {
  onEvent(type: string, data: unknown): void;
  onStatus?(status: 'open' | 'reconnecting' | 'closed', detail?: string): void;
}

/** Follows `path` until the returned function is called. */
export function followEvents(path: string, handlers: StreamHandlers): () => void {
  const controller = new AbortController();
  let stopped = false;
  let pauseMs = 500;
  const run = async () => {
    while (!stopped) {
      try {
        const response = await fetch(path, { headers: { accept: 'text/event-stream', ...authHeaders() }, signal: controller.signal });
        if (!response.ok || !response.body) {
          const text = await response.text();
          let message = text;
          try {
            message = (JSON.parse(text) as { error?: string }).error ?? text;
          } catch {
            // not JSON
          }
          throw new ApiError(message || `${response.status}`, response.status);
        }
        handlers.onStatus?.('open');
        pauseMs = 500;
        await readFrames(response.body, handlers.onEvent);
        if (!stopped) handlers.onStatus?.('reconnecting', 'the stream ended');
      } catch (error) {
        if (stopped) break;
        const status = error instanceof ApiError ? error.status : 0;
        if (status === 404 || status === 401 || status === 403) {
          handlers.onStatus?.('closed', (error as Error).message);
          return;
        }
        handlers.onStatus?.('reconnecting', (error as Error).message);
      }
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
      pauseMs = Math.min(pauseMs * 2, 10_000);
    }
  };
  void run();
  return () => {
    stopped = true;
    controller.abort();
  };
}

async function readFrames(body: ReadableStream<Uint8Array>, onEvent: (type: string, data: unknown) => void): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let type = 'message';
      const data: string[] = [];
      for (const line of frame.split('\n')) {
        if (line.startsWith('event:')) type = line.slice(6).trim();
        else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
      }
      if (!data.length) continue; // a comment (keepalive)
      try {
        onEvent(type, JSON.parse(data.join('\n')));
      } catch {
        onEvent(type, data.join('\n'));
      }
    }
  }
}
