// Owns writing a file whole: the text goes to a temporary file beside it, which is then renamed over
// the target, so a reader (another process, or this one after a crash) sees the old file or the new
// one, never half of either. Used for client configs, the daemon's state and stored credentials.
import { renameSync, rmSync, writeFileSync } from 'node:fs';

/** Replaces `file` with `text` at once; `mode` (e.g. 0o600) applies to the new file from its creation. */
export function writeFileAtomic(file: string, text: string, mode?: number): void {
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, text, mode === undefined ? {} : { mode });
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}
