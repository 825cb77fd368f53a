// Test helpers for the config layer: temp folders under os.tmpdir() and polling.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

export interface TempDir {
  dir: string;
  /** Writes `content` (objects as JSON) to `name` inside the folder and returns its absolute path. */
  write(name: string, content: unknown): Promise<string>;
  remove(): Promise<void>;
}

export async function tempDir(): Promise<TempDir> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'switchboard-config-'));
  return {
    dir,
    async write(name, content) {
      const file = path.join(dir, name);
      await writeFile(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
      return file;
    },
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}

/** Polls `check` until it returns true; fails after `timeoutMs` (generous: file events can be slow). */
export async function waitFor(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Captures the message of what `fn` throws (sync or async). */
export async function errorOf(fn: () => unknown): Promise<Error> {
  try {
    await fn();
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected an error, but none was thrown');
}
