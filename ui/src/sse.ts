// Owns reading a server-sent event stream with fetch (EventSource cannot send the bearer token): parses
// `event:`/`data:` frames, reconnects after a drop with a growing pause, and stops when told to.
import { authHeaders, ApiError } from './api';
import { frameData, readSseFrames } from '../../src/http/sse-frames';

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
        await readSseFrames(response.body, (type, data) => handlers.onEvent(type, frameData(data)));
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
