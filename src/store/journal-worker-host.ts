// Owns starting the call journal's ingest worker thread from the gateway's side: which file to run
// (the built .js, or the .ts source through tsx when running from source in tests), its errors
// reported, and a callback when it is gone so the journal can fall back to inserting on its own thread.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

export interface IngestWorkerData {
  /** The database file (the worker opens its own connection). */
  dbPath: string;
  /** The journal folder and the prefix of this process's journal files. */
  dir: string;
  prefix: string;
  everyMs: number;
  /** The writer's [file sequence, bytes] (stored with Atomics): how far the file being written may be read. */
  published: Int32Array;
}

/**
 * The worker starts this long after the journal opens: its thread loads SQLite and the journal's
 * modules, which would compete for a core with a gateway's start and the servers starting beside it.
 * Calls recorded meanwhile wait in the journal file (durable), as they do between two ingests.
 */
export const INGEST_WORKER_DELAY_MS = 1500;

/** Starts the worker (after INGEST_WORKER_DELAY_MS); undefined when it cannot run here (the caller inserts on its own thread). */
export function startIngestWorker(data: IngestWorkerData, onError: (message: string) => void, onGone: () => void, delayMs = INGEST_WORKER_DELAY_MS): { stop(): void } | undefined {
  const built = new URL('./journal-worker.js', import.meta.url);
  const source = new URL('./journal-worker.ts', import.meta.url);
  let create: () => Worker;
  if (existsSync(fileURLToPath(built))) create = () => new Worker(built, { workerData: data });
  else if (existsSync(fileURLToPath(source))) {
    // Running from source (tests): load the TypeScript entry through tsx inside the worker.
    const boot = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(source.href)}); })`;
    create = () => new Worker(boot, { eval: true, workerData: data });
  } else return undefined;
  let stopping = false;
  let worker: Worker | undefined;
  const start = () => {
    if (stopping) return;
    try {
      worker = create();
    } catch (error) {
      onError(`call journal: no ingest worker (${(error as Error).message}); inserting on the main thread`);
      onGone();
      return;
    }
    worker.unref();
    worker.on('message', (message: { error?: string }) => {
      if (message?.error) onError(`call journal worker: ${message.error}`);
    });
    worker.on('error', (error) => onError(`call journal worker failed: ${error.message}; inserting on the main thread`));
    worker.on('exit', () => {
      if (!stopping) onGone();
    });
  };
  const timer = setTimeout(start, delayMs);
  timer.unref();
  return {
    stop() {
      stopping = true;
      clearTimeout(timer);
      if (worker) void worker.terminate();
    },
  };
}
