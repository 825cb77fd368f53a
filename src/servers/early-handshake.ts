// Owns the handshake a stdio server started early (prestart.ts) makes before its connection exists:
// the `initialize` its connection will send (the stdio client's capabilities, read from its first
// line), then, once the server has answered and offers tools, `notifications/initialized` and a first
// `tools/list`, as the connection would send them next. So the server's start of its first requests
// runs while the gateway loads. Not the listing when `listEarly` is false (a server called in recent
// runs, whose tools the gateway serves from its cache): a session's first call then reaches the
// server before the live listing, which the gateway asks for after it. Everything the server writes
// meanwhile is kept, in order, for the adopting transport (adopted-transport.ts), which answers its
// connection's own `initialize` and first `tools/list` with the server's early answers (under the
// connection's ids) and sends neither again. Nothing is sent before the server has answered
// `initialize`. Light on purpose.
import type { ChildProcess } from 'node:child_process';
import { EARLY_INITIALIZE_ID, EARLY_TOOLS_LIST_ID, type DownstreamInitializeParams } from './downstream-hello.js';
import { LineSplitter } from './line-splitter.js';

/** Past this much output before adoption the child's stdout is paused (its pipe then holds the rest). */
const MAX_EARLY_OUTPUT_BYTES = 8 * 1024 * 1024;

export interface EarlyHandshake {
  /** The `initialize` the server was sent. */
  readonly params: DownstreamInitializeParams;
  /** Stops reading the child's output and returns what was read, and whether initialized and tools/list went out (once, at adoption). */
  handOver(): { output: Buffer[]; listed: boolean };
}

/** Sends the child its early `initialize` and reads its output until the adopting transport takes over. */
export function beginEarlyHandshake(child: ChildProcess, params: DownstreamInitializeParams, listEarly = true): EarlyHandshake {
  const stdin = child.stdin!;
  const stdout = child.stdout!;
  const output: Buffer[] = [];
  let bytes = 0;
  let answered = false;
  let listed = false;
  /** Lines are read only until the answer (the adopting transport reads everything from the start). */
  const lines = new LineSplitter();

  const send = (message: Record<string, unknown>) => stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
  const onAnswer = (line: string) => {
    let message: { id?: unknown; method?: unknown; result?: { capabilities?: { tools?: unknown } } };
    try {
      message = JSON.parse(line);
    } catch {
      return;
    }
    if (message?.id !== EARLY_INITIALIZE_ID || message.method !== undefined) return;
    answered = true;
    if (!listEarly || typeof message.result?.capabilities?.tools !== 'object' || message.result.capabilities.tools === null) return;
    send({ method: 'notifications/initialized' });
    send({ id: EARLY_TOOLS_LIST_ID, method: 'tools/list', params: {} });
    listed = true;
  };
  const onData = (chunk: Buffer) => {
    output.push(chunk);
    bytes += chunk.length;
    if (bytes > MAX_EARLY_OUTPUT_BYTES) stdout.pause();
    if (!answered) {
      lines.push(chunk, (line) => {
        onAnswer(line);
        return !answered;
      });
    }
  };

  send({ id: EARLY_INITIALIZE_ID, method: 'initialize', params });
  stdout.on('data', onData);
  let handedOver = false;
  return {
    params,
    handOver() {
      if (!handedOver) {
        // Paused first: a flowing stream without a listener would drop what it reads next (the adopter resumes it).
        stdout.pause();
        stdout.off('data', onData);
      }
      handedOver = true;
      return { output: output.splice(0), listed };
    },
  };
}
