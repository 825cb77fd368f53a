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

/** Starts the worker; undefined when it cannot run here (the caller inserts on its own thread). */
export function startIngestWorker(data: IngestWorkerData, onError: (message: string) => void, onGone: () => void): { stop(): void } | undefined {
  const built = new URL('./journal-worker.js', import.meta.url);
  const source = new URL('./journal-worker.ts', import.meta.url);
  let worker: Worker;
  try {
    if (existsSync(fileURLToPath(built))) worker = new Worker(built, { workerData: data });
    else if (existsSync(fileURLToPath(source))) {
      // Running from source (tests): load the TypeScript entry through tsx inside the worker.
      const boot = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(source.href)}); })`;
      worker = new Worker(boot, { eval: true, workerData: data });
    } else return undefined;
  } catch (error) {
    onError(`call journal: no ingest worker (${(error as Error).message}); inserting on the main thread`);
    return undefined;
  }
  let stopping = false;
  worker.unref();
  worker.on('message', (message: { error?: string }) => {
    if (message?.error) onError(`call journal worker: ${message.error}`);
  });
  worker.on('error', (error) => onError(`call journal worker failed: ${error.message}; inserting on the main thread`));
  worker.on('exit', () => {
    if (!stopping) onGone();
  });
  return {
    stop() {
      stopping = true;
      void worker.terminate();
    },
  };
}
