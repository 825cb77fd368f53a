// Owns an early look at the stdio client's first message. `serve --stdio` starts reading stdin before
// the gateway has loaded (serve-prestart.ts), to learn the client's `initialize` while the servers it
// started early still boot; reading stops at the first whole line (or after MAX_PEEK_BYTES of one). The stdio face takes everything
// read so far when it starts (takePeekedInput) and goes on from there, so no byte is lost or read
// twice, and an end of input seen meanwhile still closes the session. Light on purpose.
import { LineSplitter } from '../servers/line-splitter.js';

/** What was read before the face started. */
export interface PeekedInput {
  bytes: Buffer;
  /** The input ended (or failed) before the face started. */
  ended: boolean;
}

/** The early look gives up on a first line longer than this (an initialize is a few hundred bytes). */
const MAX_PEEK_BYTES = 1024 * 1024;

interface Peek {
  stream: NodeJS.ReadableStream;
  chunks: Buffer[];
  ended: boolean;
  onData: (chunk: Buffer) => void;
  onEnd: () => void;
}

let peek: Peek | undefined;

/**
 * Reads `stream` until its first newline, then pauses it and calls `onFirstLine` with that line (once;
 * never when the input ends first). What was read stays here for the face (takePeekedInput).
 */
export function peekFirstLine(stream: NodeJS.ReadableStream, onFirstLine: (line: string) => void): void {
  if (peek) return;
  // A first line this long is left to the face (which bounds lines), unread here.
  let tooLong = false;
  const lines = new LineSplitter(MAX_PEEK_BYTES, () => (tooLong = true));
  const state: Peek = {
    stream,
    chunks: [],
    ended: false,
    onData: (chunk) => {
      state.chunks.push(chunk);
      let first: string | undefined;
      lines.push(chunk, (line) => {
        if (!tooLong) first = line;
        return false;
      });
      if (first === undefined && !tooLong) return;
      stop(state);
      if (first !== undefined) onFirstLine(first);
    },
    onEnd: () => {
      state.ended = true;
      stop(state);
    },
  };
  peek = state;
  stream.on('data', state.onData);
  stream.on('end', state.onEnd);
  stream.on('error', state.onEnd);
}

function stop(state: Peek): void {
  // Paused before the listener goes: a flowing stream without one would drop what it reads next.
  state.stream.pause();
  state.stream.off('data', state.onData);
  // The end and error listeners stay until the face's own are attached: the input's end can come
  // right behind the first line (a client that writes `initialize` and closes), and a stream
  // emits 'end' once; missed here, the face would wait for it forever. (An 'error' with no
  // listener would throw.)
}

/**
 * For the face reading `stream`: what the early look read from it (undefined when none looked). The
 * stream is left paused; the face resumes it once its own listeners are attached.
 */
export function takePeekedInput(stream: NodeJS.ReadableStream): PeekedInput | undefined {
  const state = peek;
  if (!state || state.stream !== stream) return undefined;
  peek = undefined;
  stop(state);
  state.stream.off('end', state.onEnd);
  state.stream.off('error', state.onEnd);
  return { bytes: Buffer.concat(state.chunks), ended: state.ended };
}
