// @ts-check
// Copies the built gateway (dist/) into the run's scratch folder before anything is measured, so
// every gateway process of a run executes the same code even when dist/ is rebuilt meanwhile (other
// work on the checkout runs `tsc` too). The copy resolves its packages through a symlink to the
// project's node_modules; the only file dist/ loads relative to itself is the call journal's native
// addon (native/journal-mmap/build), copied along when it was built.
import { cpSync, existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gitRevision } from './report.mjs';
import { ROOT_DIR } from './root-modules.mjs';

/**
 * @param {string} tmp the run's scratch folder
 * @returns {{root: string, main: string, revision: {commit: string | null, src_dirty: boolean | null, src_changes: string[]}} | undefined}
 */
export function snapshotGateway(tmp) {
  const dist = path.join(ROOT_DIR, 'dist');
  if (!existsSync(path.join(dist, 'bundle', 'main.js'))) return undefined;
  const revision = gitRevision();
  const root = path.join(tmp, 'switchboard');
  mkdirSync(root, { recursive: true });
  cpSync(dist, path.join(root, 'dist'), { recursive: true });
  const addon = path.join(ROOT_DIR, 'native', 'journal-mmap', 'build', 'Release');
  if (existsSync(addon)) cpSync(addon, path.join(root, 'native', 'journal-mmap', 'build', 'Release'), { recursive: true });
  writeFileSync(path.join(root, 'package.json'), '{"type": "module"}\n');
  symlinkSync(path.join(ROOT_DIR, 'node_modules'), path.join(root, 'node_modules'), 'dir');
  return { root, main: path.join(root, 'dist', 'bundle', 'main.js'), revision };
}
