// Owns server-sent event responses of the admin API: a stream that writes `event:`/`data:` frames
// for whatever its source pushes, a comment line every 15 s so proxies and idle timers keep it open,
// and clean-up (the source's unsubscribe) when the client goes away or the stream is cancelled.

/** Pushes one event into the stream; returns false once the stream is closed. */
export type SendEvent = (type: string, data: unknown) => boolean;

const KEEPALIVE_MS = 15_000;

/**
 * A `text/event-stream` response. `start` gets the sender and returns the function that stops its
 * source; it is called once, when the client disconnects (`signal`) or the stream is cancelled.
 */
export function eventStream(signal: AbortSignal, start: (send: SendEvent) => () => void, greeting = 'switchboard events'): Response {
  const encoder = new TextEncoder();
  let finish = () => {};
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      let open = true;
      let stopSource = () => {};
      const write = (text: string): boolean => {
        if (!open) return false;
        try {
          controller.enqueue(encoder.encode(text));
          return true;
        } catch {
          finish(); // already closed underneath
          return false;
        }
      };
      const keepalive = setInterval(() => write(': keepalive\n\n'), KEEPALIVE_MS);
      keepalive.unref();
      finish = () => {
        if (!open) return;
        open = false;
        clearInterval(keepalive);
        stopSource();
        try {
          controller.close();
        } catch {
          // already closed
        }
      };
      write(`: ${greeting}\n\n`);
      stopSource = start((type, data) => write(`event: ${type}\ndata: ${JSON.stringify(data)}\n\n`));
      if (signal.aborted) finish();
      else signal.addEventListener('abort', () => finish(), { once: true });
    },
    cancel() {
      finish();
    },
  });
  return new Response(body, { headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' } });
}
