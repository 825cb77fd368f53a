// Owns where Switchboard keeps its data when --data-dir is not given: SWITCHBOARD_DATA_DIR, else the
// per-user data folder (env-paths, e.g. ~/.local/share/switchboard). Light on purpose (the shim uses it).
import envPaths from 'env-paths';

export function defaultDataDir(): string {
  return process.env.SWITCHBOARD_DATA_DIR || envPaths('switchboard', { suffix: '' }).data;
}
