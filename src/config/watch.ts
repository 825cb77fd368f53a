// Owns live reload: watching the config file (and its switchboard.json) and diffing server lists.
import path from 'node:path';
import type { FSWatcher } from 'chokidar';
import { ConfigError } from './errors.js';
import { configsEqual } from './equal.js';
import { loadConfig, settingsFileFor } from './load.js';
import type { LoadedConfig, ServerConfig } from './types.js';

export interface WatchConfigOptions {
  /** Called with the new config each time a reload yields one different from the last good config. */
  onChange(config: LoadedConfig): void;
  /** Called when a reload fails (the last good config stays current) or the watcher itself fails. */
  onError(err: ConfigError | Error): void;
  /** The config the caller already loaded; without it the watcher loads a baseline itself (silently). */
  initial?: LoadedConfig;
  /** Environment for ${VAR} expansion; default process.env. */
  env?: NodeJS.ProcessEnv;
  /**
   * Start watching this long after the call (default 0): loading chokidar and reading the folder then
   * stays out of a starting gateway's first answers. With `initial`, an edit made before watching
   * began is still applied: the file is read once more as soon as it is watched (without `initial`
   * that read is the baseline).
   */
  startAfterMs?: number;
}

export interface ConfigWatcher {
  /** Resolves once the file is being watched and the baseline config is known. */
  ready: Promise<void>;
  /** Stops watching; no callback runs after the returned promise resolves. */
  close(): Promise<void>;
}

/**
 * Watches a config file and reports validated changes. Bursts of events within `debounceMs` cause
 * one reload; editors that save by writing a temp file and renaming it over the original are handled,
 * and so is a file that is deleted and created again. An invalid edit (or a missing file) calls
 * onError and keeps the last good config.
 */
export function watchConfig(file: string, options: WatchConfigOptions, debounceMs = 150): ConfigWatcher {
  const absolute = path.resolve(file);
  const sidecar = settingsFileFor(absolute);
  const env = options.env ?? process.env;

  let last: LoadedConfig | undefined = options.initial && structuredClone(options.initial);
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;

  const reloadOnce = async (silent: boolean): Promise<void> => {
    let next: LoadedConfig;
    try {
      next = await loadConfig(absolute, env);
    } catch (err) {
      if (!closed) options.onError(err as Error);
      return;
    }
    if (closed) return;
    const changed = last === undefined || !configsEqual(last, next);
    last = structuredClone(next); // a private copy: callers may change what they are handed
    if (!changed || silent) return;
    try {
      options.onChange(next);
    } catch (err) {
      options.onError(err as Error);
    }
  };

  // One reload at a time; events arriving during a reload cause exactly one more afterwards.
  const reload = (silent = false): Promise<void> => {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      try {
        do {
          again = false;
          await reloadOnce(silent);
          silent = false;
        } while (again && !closed);
      } finally {
        running = undefined;
      }
    })();
    return running;
  };

  const schedule = (): void => {
    if (closed) return;
    clearTimeout(timer);
    timer = setTimeout(() => void reload(), debounceMs);
  };

  // Watch the folder, not the file: a file watch is lost when the file is deleted or replaced by a
  // rename, while the folder sees the new file arrive. Everything else in the folder is ignored.
  const folder = path.dirname(absolute);
  const wanted = new Set(sidecar ? [absolute, sidecar] : [absolute]);
  // chokidar loads with the watcher, not with the config layer: a gateway answers its first request sooner.
  // The watch begins after startAfterMs; close() during the wait ends it at once (and it never begins).
  const delay = options.startAfterMs ?? 0;
  let endDelay = (): void => {};
  const begun = delay > 0
    ? new Promise<void>((resolve) => {
        const wait = setTimeout(resolve, delay);
        endDelay = () => {
          clearTimeout(wait);
          resolve();
        };
      })
    : Promise.resolve();
  const started: Promise<FSWatcher | undefined> = begun.then(async () => {
    if (closed) return undefined;
    const { watch } = await import('chokidar');
    if (closed) return undefined;
    const watcher = watch(folder, {
      ignoreInitial: true,
      persistent: true,
      atomic: true,
      depth: 0,
      ignored: (candidate: string) => candidate !== folder && !wanted.has(path.resolve(candidate)),
    });
    watcher.on('all', (event) => {
      if (event === 'add' || event === 'change' || event === 'unlink') schedule();
    });
    watcher.on('error', (err) => {
      if (!closed) options.onError(err instanceof Error ? err : new Error(String(err)));
    });
    return watcher;
  });

  let stopWaiting = (): void => {};
  const watching = new Promise<void>((resolve) => {
    stopWaiting = resolve;
    void started.then(
      (watcher) => (watcher ? watcher.once('ready', () => resolve()) : resolve()),
      (err: Error) => {
        if (!closed) options.onError(new Error(`cannot watch the config file: ${err.message}`));
        resolve();
      },
    );
  });
  const ready = (async () => {
    await watching;
    if (closed) return;
    // No baseline yet: load one silently. A watch that began late: an edit made meanwhile is applied now.
    if (last === undefined) await reload(true);
    else if (delay > 0) await reload();
  })();

  return {
    ready,
    async close() {
      closed = true;
      clearTimeout(timer);
      endDelay(); // a watch not yet begun never begins (closed), and what waits for it settles
      stopWaiting(); // `ready` settles even when closed before the watcher was ready
      await (await started.catch(() => undefined))?.close();
      await running;
    },
  };
}

export interface ServerDiff {
  /** In `next` but not in `prev` (in `next` order). */
  added: ServerConfig[];
  /** Keys in `prev` but not in `next` (in `prev` order). */
  removed: string[];
  /** Same key, any field different: the new config (in `next` order). */
  changed: ServerConfig[];
}

export function diffServers(prev: ServerConfig[], next: ServerConfig[]): ServerDiff {
  const before = new Map(prev.map((s) => [s.key, s]));
  const afterKeys = new Set(next.map((s) => s.key));
  const added: ServerConfig[] = [];
  const changed: ServerConfig[] = [];
  for (const server of next) {
    const old = before.get(server.key);
    if (old === undefined) added.push(server);
    else if (!configsEqual(old, server)) changed.push(server);
  }
  const removed = prev.filter((s) => !afterKeys.has(s.key)).map((s) => s.key);
  return { added, removed, changed };
}
