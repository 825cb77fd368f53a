// Owns the file a call journal writer appends to, in its two forms: a memory-mapped file of fixed
// size (a line is a copy into shared file pages; the rest of the file stays zero until used) and a
// plain file appended with one write(2) per line. Both make a line survive a kill -9 of the process
// the moment append() returns. Readers take a file's data to its first zero byte (journal-ingest.ts).
import { closeSync, ftruncateSync, openSync, unlinkSync, writeSync } from 'node:fs';
import type { JournalMapper } from './journal-mmap.js';

export interface JournalSink {
  readonly fd: number;
  /** Bytes of lines in the file. */
  readonly bytes: number;
  /** Whether `line` still fits (a plain file takes lines until it is rotateBytes long). */
  fits(line: string): boolean;
  /** Appends one line (ending in \n); returns the bytes written. */
  append(line: string): number;
  /** No more lines: the file keeps exactly its lines (a mapped file loses its unused zero tail). */
  close(): void;
}

/** A plain file: one write(2) of the line per call. */
export class AppendSink implements JournalSink {
  readonly fd: number;
  bytes = 0;

  constructor(
    private readonly file: string,
    private readonly rotateBytes: number,
  ) {
    this.fd = openSync(file, 'ax'); // a new file: its lines start at byte 0
  }

  fits(): boolean {
    return this.bytes < this.rotateBytes;
  }

  append(line: string): number {
    const wrote = writeSync(this.fd, line); // a string: no Buffer made here
    if (wrote === Buffer.byteLength(line)) {
      this.bytes += wrote;
      return wrote;
    }
    // A short write (a full disk, a signal): write the rest, or fail the call's recording loudly.
    const encoded = Buffer.from(line);
    for (let at = wrote; at < encoded.length; ) {
      const n = writeSync(this.fd, encoded, at);
      if (n <= 0) throw new Error(`call journal: could not write to ${this.file}`);
      at += n;
    }
    this.bytes += encoded.length;
    return encoded.length;
  }

  close(): void {
    closeSync(this.fd);
  }
}

const PAGE = 4096;

/**
 * A file of `size` bytes reserved on disk up front and mapped shared: a line is copied into the
 * mapping (no system call), and a full disk shows when the file is created, never on a copy (the
 * addon maps only on file systems that really reserve blocks: ext4, xfs, tmpfs). A file that cannot
 * be mapped is removed again, so a fallback never appends behind its zeros.
 *
 * The first write to a page of the file is a page fault (about 25 µs here, once per ~40 lines), so
 * the page after the one being written is touched ahead of time, after the current call's answer
 * has gone out (setImmediate), never on a call's path.
 */
export class MappedSink implements JournalSink {
  readonly fd: number;
  bytes = 0;
  private readonly buffer: ArrayBuffer;
  private readonly view: Buffer;
  /** Pages before this offset have been written to (by a line or ahead of time). */
  private touchedTo = 0;
  private touchPending = false;
  private readonly touchAhead = () => {
    this.touchPending = false;
    this.touch((Math.floor(this.bytes / PAGE) + 2) * PAGE);
  };

  constructor(
    file: string,
    private readonly size: number,
    private readonly mapper: JournalMapper,
  ) {
    this.fd = openSync(file, 'wx+');
    try {
      this.buffer = mapper.map(this.fd, size);
    } catch (error) {
      closeSync(this.fd);
      try {
        unlinkSync(file);
      } catch {
        // The mapping's error is the one to report; this file holds no lines and goes at the next recovery.
      }
      throw error;
    }
    this.view = Buffer.from(this.buffer);
    this.touch(2 * PAGE); // this is the rotation (or start), not the copy: the first two pages now
  }

  /** Writes a zero into every page from touchedTo up to `end` that no line has reached yet. */
  private touch(end: number): void {
    const until = Math.min(end, this.view.length); // a detached (closed) view has length 0
    for (let page = Math.max(this.touchedTo, Math.ceil(this.bytes / PAGE) * PAGE); page < until; page += PAGE) this.view[page] = 0;
    if (until > this.touchedTo) this.touchedTo = until;
  }

  fits(line: string): boolean {
    return this.bytes + line.length * 3 <= this.size; // a UTF-16 unit is at most 3 bytes of UTF-8
  }

  append(line: string): number {
    const wrote = this.view.write(line, this.bytes);
    this.bytes += wrote;
    if (this.bytes + PAGE > this.touchedTo && !this.touchPending) {
      this.touchPending = true;
      setImmediate(this.touchAhead);
    }
    return wrote;
  }

  close(): void {
    try {
      this.mapper.unmap(this.buffer); // no access to the pages after this, so truncating cannot fault
      ftruncateSync(this.fd, this.bytes);
    } finally {
      closeSync(this.fd);
    }
  }
}
