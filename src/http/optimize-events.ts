// Owns streaming the optimization event bus (phase, tool, done/total; decisions) as server-sent events for the
// dashboard and TUI, and the state of a run started through the admin API (`run`). One listener pair per open stream, removed when the client goes away.
import type { OptimizeEvents } from '../optimize/service.js';
import { eventStream } from './sse.js';

export function optimizationEventStream(events: OptimizeEvents, signal: AbortSignal): Response {
  return eventStream(
    signal,
    (send) => {
      const onPhase = (data: unknown) => send('phase', data);
      const onDecision = (data: unknown) => send('decision', data);
      const onRun = (data: unknown) => send('run', data);
      events.on('phase', onPhase);
      events.on('decision', onDecision);
      events.on('run', onRun);
      return () => {
        events.off('phase', onPhase);
        events.off('decision', onDecision);
        events.off('run', onRun);
      };
    },
    'switchboard optimization events',
  );
}
