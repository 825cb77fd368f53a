// Owns a stdio server's stderr as the gateway sees it: every line logged (info, stream "stderr") and
// the last few kept, to explain a failed start or a crash.
import { createInterface } from 'node:readline';
import type { Logger } from '../logging/logger.js';

export class StderrTail {
  /** The last lines, newest last. */
  readonly lines: string[] = [];

  constructor(private readonly max = 20) {}

  capture(stream: NodeJS.ReadableStream, log: Logger, redact: (text: string) => string = (t) => t): void {
    const reader = createInterface({ input: stream });
    reader.on('line', (raw) => {
      const line = redact(raw);
      this.lines.push(line);
      if (this.lines.length > this.max) this.lines.shift();
      log.info({ stream: 'stderr' }, line);
    });
    reader.on('error', () => undefined);
  }
}
