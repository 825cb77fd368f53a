// Owns streaming the optimization event bus (phase, tool, done/total; decisions) as server-sent events for the
// dashboard and TUI. One listener pair per open stream, removed when the client goes away.
import type { OptimizeEvents, OptimizeEventMap } from '../optimize/service.js';

export function optimizationEventStream(events: OptimizeEvents, signal: AbortSignal): Response {
  const encoder = new TextEncoder();
  let stop = () => {};
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (type: keyof OptimizeEventMap) => (data: unknown) => {
        try {
          controller.enqueue(encoder.encode(`event: ${type}\ndata: ${JSON.stringify(data)}\n\n`));
        } catch {
          stop(); // the stream is already closed
        }
      };
      const onPhase = send('phase');
      const onDecision = send('decision');
      events.on('phase', onPhase);
      events.on('decision', onDecision);
      stop = () => {
        events.off('phase', onPhase);
        events.off('decision', onDecision);
      };
      controller.enqueue(encoder.encode(': switchboard optimization events\n\n'));
      signal.addEventListener('abort', () => {
        stop();
        try {
          controller.close();
        } catch {
          // already closed
        }
      }, { once: true });
    },
    cancel() {
      stop();
    },
  });
  return new Response(body, { headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' } });
}
