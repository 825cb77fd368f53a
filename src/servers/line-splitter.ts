// Owns cutting a byte stream into the lines of newline-delimited JSON-RPC (stdio): each line without
// its `\n` (and a `\r` before it), decoded as UTF-8 once it is whole, a line that came whole in one
// chunk without a copy. A line over `maxLineBytes` is dropped whole (its owner is told once) and the
// next line is read as usual. SDK-free and light on purpose: serve's early start (stdin-peek.ts,
// early-handshake.ts) uses it before anything heavy loads, and the stdio face (stdio-transport.ts)
// for every message a client sends.

export class LineSplitter {
  /** The unfinished line's parts, and their bytes. */
  private chunks: Buffer[] = [];
  private buffered = 0;
  /** Dropping the rest of a line that grew past the limit. */
  private skipping = false;

  constructor(
    private readonly maxLineBytes = Number.POSITIVE_INFINITY,
    private readonly onTooLong: () => void = () => undefined,
  ) {}

  /**
   * Calls `onLine` with every line `chunk` completes, in order; the rest waits for the next chunk.
   * `onLine` returning false stops the reading at that line: what followed it is not kept.
   */
  push(chunk: Buffer, onLine: (line: string) => boolean | void): void {
    let start = 0;
    for (let at = chunk.indexOf(0x0a); at !== -1; at = chunk.indexOf(0x0a, start)) {
      let line: string | undefined;
      if (this.chunks.length === 0 && !this.skipping && at - start <= this.maxLineBytes) {
        // The usual case: a line that came whole in this chunk, decoded in place.
        line = chunk.toString('utf8', start, at > start && chunk[at - 1] === 0x0d ? at - 1 : at);
      } else {
        this.add(chunk.subarray(start, at));
        if (!this.skipping) line = Buffer.concat(this.chunks, this.buffered).toString('utf8').replace(/\r$/, '');
        this.chunks = [];
        this.buffered = 0;
        this.skipping = false;
      }
      start = at + 1;
      if (line !== undefined && onLine(line) === false) return;
    }
    this.add(chunk.subarray(start));
  }

  /** Bytes of the unfinished line kept so far. */
  get pendingBytes(): number {
    return this.buffered;
  }

  private add(part: Buffer): void {
    if (this.skipping || part.length === 0) return;
    if (this.buffered + part.length > this.maxLineBytes) {
      this.chunks = [];
      this.buffered = 0;
      this.skipping = true;
      this.onTooLong();
      return;
    }
    this.chunks.push(part);
    this.buffered += part.length;
  }
}
