// Owns writing a file whole: the text goes to a new temporary file beside it (created exclusively,
// with its final mode from the first byte, flushed to disk), which is then renamed over the target,
// so a reader (another process, or this one after a crash) sees the old file or the new one, never
// half of either. Used for client configs, the gateway's config edits, the daemon's state and
// stored OAuth credentials.
import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';

/** Replaces `file` with `text` at once; `mode` (e.g. 0o600) applies to the new file from its creation. */
export function writeFileAtomic(file: string, text: string, mode = 0o666): void {
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const fd = openSync(temporary, 'wx', mode);
  try {
    try {
      writeSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}
