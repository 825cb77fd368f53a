// Owns V8's code cache for Switchboard's own modules (Node 22.1 and later): the first run compiles
// them and keeps the result, later starts read it instead of compiling again (a stdio session's
// first call 679 -> 633 ms under Node 22, docs/performance.md seventh pass). Kept in the per-user
// cache folder (env-paths, e.g. ~/.cache/switchboard/node-compile-cache), never in a shared
// temporary folder: V8 trusts cached code, so the folder is used only when it belongs to this user
// and nobody else can write to it. Node checks every entry against the source it was made from, so a
// changed or upgraded file is compiled afresh.
// Not for runs that cap the young generation (serve --http and the daemon, young-generation-cap.ts):
// V8 accepts an entry only under the flags it was made with, and the cap changes a flag while the
// modules load, so entries would be rejected and rewritten by turns.
// SWITCHBOARD_COMPILE_CACHE=0 turns it off; NODE_COMPILE_CACHE (Node's own folder) is honoured, and
// NODE_DISABLE_COMPILE_CACHE=1 turns it off too. Older Node: nothing happens.
// Imported first by bin/switchboard.js (and by main.ts, for runs of dist/cli/main.js): it covers only
// the modules loaded after it, and a second call changes nothing.
import { mkdirSync, statSync } from 'node:fs';
import module from 'node:module';
import path from 'node:path';
import envPaths from 'env-paths';
import { capFromEnvironment, servesHttp } from './young-generation-cap.js';

type EnableCompileCache = (directory?: string) => { status: number; message?: string; directory?: string };

/** Where the cache goes: the per-user cache folder. */
export function compileCacheDirectory(): string {
  return path.join(envPaths('switchboard', { suffix: '' }).cache, 'node-compile-cache');
}

/** Whether a folder is this user's alone: owned by them, writable by nobody else (always true where there are no uids). */
export function isPrivateFolder(directory: string): boolean {
  if (typeof process.getuid !== 'function') return true;
  const stats = statSync(directory);
  return stats.isDirectory() && stats.uid === process.getuid() && (stats.mode & 0o022) === 0;
}

/** Why the cache stays off for this run, or undefined when it may be turned on. */
export function compileCacheOff(argv: readonly string[], env: NodeJS.ProcessEnv): string | undefined {
  if (env.SWITCHBOARD_COMPILE_CACHE === '0') return 'SWITCHBOARD_COMPILE_CACHE=0';
  if (servesHttp(argv) && capFromEnvironment(env.SWITCHBOARD_SEMI_SPACE_CAP_MB) !== undefined) return 'the young generation is capped';
  return undefined;
}

/** Turns the cache on when this Node has it and nothing says no; returns Node's answer (undefined: not tried). */
export function enableCompileCache(argv: readonly string[] = process.argv, env: NodeJS.ProcessEnv = process.env): ReturnType<EnableCompileCache> | undefined {
  const enable = (module as unknown as { enableCompileCache?: EnableCompileCache }).enableCompileCache;
  if (!enable || compileCacheOff(argv, env) !== undefined) return undefined;
  try {
    if (env.NODE_COMPILE_CACHE) return enable();
    const directory = compileCacheDirectory();
    mkdirSync(directory, { recursive: true, mode: 0o700 });
    if (!isPrivateFolder(directory)) return undefined;
    return enable(directory);
  } catch {
    return undefined; // a folder it cannot create or read: compiled as usual
  }
}

enableCompileCache();
