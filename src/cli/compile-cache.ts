// Owns V8's code cache for Switchboard's own modules (Node 22.1 and later): the first run compiles
// them and keeps the result, every later start of `switchboard` reads it instead of compiling again,
// which is most of a start's time after reading the files (docs/performance.md, first call). Kept in
// the per-user cache folder (env-paths, e.g. ~/.cache/switchboard/node-compile-cache), never in a
// shared temporary folder another user could write to. Node checks every entry against the source
// it was made from, so a changed or upgraded file is compiled afresh.
// SWITCHBOARD_COMPILE_CACHE=0 turns it off; NODE_COMPILE_CACHE (Node's own) takes precedence when
// set, and NODE_DISABLE_COMPILE_CACHE=1 turns it off too. Older Node: nothing happens.
// Imported first by bin/switchboard.js (and by main.ts, for runs of dist/cli/main.js): it covers only
// the modules loaded after it, and a second call changes nothing.
import module from 'node:module';
import path from 'node:path';
import envPaths from 'env-paths';

type EnableCompileCache = (directory?: string) => { status: number; message?: string; directory?: string };

/** Where the cache goes: the per-user cache folder. */
export function compileCacheDirectory(): string {
  return path.join(envPaths('switchboard', { suffix: '' }).cache, 'node-compile-cache');
}

/** Turns the cache on when this Node has it and nothing says no; returns Node's answer (undefined: not tried). */
export function enableCompileCache(env: NodeJS.ProcessEnv = process.env): ReturnType<EnableCompileCache> | undefined {
  const enable = (module as unknown as { enableCompileCache?: EnableCompileCache }).enableCompileCache;
  if (!enable || env.SWITCHBOARD_COMPILE_CACHE === '0') return undefined;
  try {
    return enable(env.NODE_COMPILE_CACHE ? undefined : compileCacheDirectory());
  } catch {
    return undefined; // a folder it cannot create: compiled as usual
  }
}

enableCompileCache();
