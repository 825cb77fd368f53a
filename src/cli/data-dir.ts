// Owns where Switchboard keeps its data when --data-dir is not given: SWITCHBOARD_DATA_DIR, else the
// per-user data folder (env-paths, e.g. ~/.local/share/switchboard). Light on purpose (the shim uses it).
import path from 'node:path';
import envPaths from 'env-paths';

/** The data dir a command uses: --data-dir, else SWITCHBOARD_DATA_DIR, else the per-user folder (absolute). */
export function dataDirOf(options: { dataDir?: string }): string {
  return path.resolve(options.dataDir ?? defaultDataDir());
}

export function defaultDataDir(): string {
  return process.env.SWITCHBOARD_DATA_DIR || envPaths('switchboard', { suffix: '' }).data;
}
