// Owns giving memory back after a burst. A busy minute leaves V8's heap grown (young generation at
// its largest, old space full of garbage), and V8 shrinks it only when its memory reducer decides to:
// seconds later on an idle machine, up to ~100 s on a busy one. `serve` is a long-lived process that
// mostly waits, so once it has been idle for a while after its heap grew, it runs one full collection
// itself. A collection after several quiet seconds (V8 then sees a low allocation rate) also shrinks
// the young generation, which is most of what a burst leaves in RSS. The cost is one pair of full
// collections (tens of milliseconds) per burst, paid while nothing waits.
import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import v8 from 'node:v8';
import vm from 'node:vm';
import type { Logger } from '../logging/logger.js';

/** How often utilization and heap size are sampled. */
const INTERVAL_MS = 2_000;
/** Quiet time needed before a collection: more than V8's 5 s allocation-rate window. */
const QUIET_MS = 6_000;
/** Event-loop utilization under which an interval counts as quiet. */
const IDLE_UTILIZATION = 0.02;
/** Heap growth over the size after the last collection that is worth collecting for. */
const GROWTH_BYTES = 8 * 1024 * 1024;
/** A young generation above this is a grown one (V8 starts it at 1 MB; a burst grows it to ~33 MB). */
const GROWN_YOUNG_BYTES = 8 * 1024 * 1024;
/**
 * Further collections per burst while only the young generation stays grown: V8 shrinks it when the
 * allocation rate since the previous collection is low, which the burst itself can hide from the
 * first pair; one more after another quiet spell sees only the quiet.
 */
const YOUNG_RETRIES = 2;

/** Starts the idle trim; the timer never keeps the process alive. Returns its stop. */
export function trimHeapWhenIdle(log: Logger): () => void {
  let floor = heapSize();
  let quietSince: number | undefined;
  let youngRetries = YOUNG_RETRIES;
  let last: EventLoopUtilization = performance.eventLoopUtilization();
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    const busy = performance.eventLoopUtilization(now, last).utilization > IDLE_UTILIZATION;
    last = now;
    if (busy) {
      quietSince = undefined;
      youngRetries = YOUNG_RETRIES;
      return;
    }
    quietSince ??= Date.now() - INTERVAL_MS;
    if (Date.now() - quietSince < QUIET_MS) return;
    const size = heapSize();
    const grown = size >= floor + GROWTH_BYTES;
    if (!grown && !(youngRetries > 0 && youngSize() > GROWN_YOUNG_BYTES)) return;
    if (!grown) youngRetries -= 1;
    const collect = collector();
    if (!collect) return void clearInterval(timer);
    const started = performance.now();
    // Twice: the first collection frees the garbage, the second moves what survived off the pages the
    // first left sparse, so they are given back too (old space 92 -> 28 MB after an HTTP burst, not 92).
    collect();
    collect();
    floor = heapSize();
    // The collections used the loop; quiet time starts again, so the next look comes a quiet spell later.
    last = performance.eventLoopUtilization();
    quietSince = Date.now();
    log.debug({ heapBefore: size, heapAfter: floor, youngAfter: youngSize(), ms: Math.round(performance.now() - started) }, 'idle: heap collected and shrunk');
  }, INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}

function youngSize(): number {
  return v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0;
}

function heapSize(): number {
  return v8.getHeapStatistics().total_heap_size;
}

let gc: (() => void) | null | undefined;

/**
 * V8's collection function: the global one when node runs with --expose-gc, otherwise one taken from
 * a fresh context with the flag set for just that moment. Null where the runtime refuses.
 */
function collector(): (() => void) | null {
  if (gc !== undefined) return gc;
  const global = (globalThis as { gc?: () => void }).gc;
  if (typeof global === 'function') return (gc = global);
  try {
    v8.setFlagsFromString('--expose-gc');
    const taken: unknown = vm.runInNewContext('gc');
    gc = typeof taken === 'function' ? (taken as () => void) : null;
  } catch {
    gc = null; // no collection offered: V8's own memory reducer still runs, only later
  } finally {
    v8.setFlagsFromString('--no-expose-gc');
  }
  return gc;
}
