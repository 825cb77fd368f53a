// Owns the HTTP face's cap on V8's young generation. V8 grows its two semi-spaces from 1 MB up to
// 16 MB each, and a gateway reaches that within its start; the ~32 MB are resident from then on, about
// a quarter of the HTTP gateway's RSS. Capped at 8 MB each, the HTTP face measured 11 MB less RSS after
// 2,000 calls and no more CPU per call (docs/performance.md, issue 17 sixth pass); the stdio face keeps
// V8's default, where the same cap cost CPU per call in the same session.
// --max-semi-space-size counts only when V8 starts (node's command line or NODE_OPTIONS), so the cap
// works through the flag V8 reads each time it grows the young generation: after every collection,
// growth is allowed (factor 2) while a doubling stays within the cap and stopped (factor 1) otherwise.
// A young generation V8 shrank later (the idle trim) grows again up to the cap. Collections are
// reported between event-loop turns, so a long synchronous stretch could grow it one step past the
// cap before the next check; none did in the measured runs.
// Imported first by main.ts: the growth that matters happens while the gateway's modules load.
import { PerformanceObserver } from 'node:perf_hooks';
import v8 from 'node:v8';
import { serveFace } from './serve-face.js';

/** The cap on one semi-space (V8's own maximum is 16 MB on 64-bit). */
export const SEMI_SPACE_CAP_BYTES = 8 * 1024 * 1024;
/** V8's default growth factor of the young generation. */
const GROWTH_FACTOR = 2;

/** One semi-space's capacity: V8 reports the young generation's two semi-spaces together. */
function semiSpaceBytes(): number {
  const young = v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
  return young ? young.space_size / 2 : 0;
}

/**
 * Keeps each semi-space of the young generation at most `cap` bytes from now on. Returns its stop
 * (V8's default growth back).
 */
export function capYoungGeneration(cap = SEMI_SPACE_CAP_BYTES): () => void {
  let growing: boolean | undefined;
  const check = () => {
    // Growth doubles a semi-space, so it is allowed only while the doubled size stays within the cap.
    const allow = semiSpaceBytes() * GROWTH_FACTOR <= cap;
    // Stopped growth is set again after every collection: starting a worker thread (pino's pretty
    // printer on a terminal, for one) resets V8's flags to their defaults.
    if (allow && growing === true) return;
    growing = allow;
    v8.setFlagsFromString(`--semi-space-growth-factor=${allow ? GROWTH_FACTOR : 1}`);
  };
  check();
  const observer = new PerformanceObserver(check);
  observer.observe({ entryTypes: ['gc'] });
  return () => {
    observer.disconnect();
    v8.setFlagsFromString(`--semi-space-growth-factor=${GROWTH_FACTOR}`);
  };
}

/** `serve --http` (and the daemon, which serves HTTP): the faces the cap is measured for. */
export function servesHttp(argv: readonly string[]): boolean {
  return serveFace(argv) === 'http';
}

/**
 * The cap in bytes from SWITCHBOARD_SEMI_SPACE_CAP_MB (a whole number of MB; 0: V8's own growth),
 * else the default; undefined: no cap.
 */
export function capFromEnvironment(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return SEMI_SPACE_CAP_BYTES;
  const mb = Number(value);
  if (!Number.isInteger(mb) || mb < 0) return SEMI_SPACE_CAP_BYTES; // not a number of MB: the default (logged nowhere this early)
  return mb === 0 ? undefined : mb * 1024 * 1024;
}

if (servesHttp(process.argv)) {
  const cap = capFromEnvironment(process.env.SWITCHBOARD_SEMI_SPACE_CAP_MB);
  if (cap !== undefined) capYoungGeneration(cap);
}
