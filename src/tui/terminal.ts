// Owns leaving the terminal as it was found: the alternate screen entered at start, and on every way out (quit,
// Ctrl+C, SIGINT/SIGTERM/SIGHUP, an uncaught error) raw mode off, the cursor shown and the normal screen back.
// `restore` is idempotent, so the paths that race (a signal during an exit) cannot write it twice.
const ENTER_ALTERNATE = '\x1b[?1049h\x1b[H';
const LEAVE_ALTERNATE = '\x1b[?1049l';
const SHOW_CURSOR = '\x1b[?25h';

export interface TerminalGuard {
  /** Puts the terminal back (safe to call more than once). */
  restore(): void;
  /** Removes the signal and error handlers (after a normal exit). */
  dispose(): void;
}

export function guardTerminal(onFatal: (reason: string, error?: unknown) => void, output: NodeJS.WriteStream = process.stdout, input: NodeJS.ReadStream = process.stdin): TerminalGuard {
  let restored = false;
  const restore = () => {
    if (restored) return;
    restored = true;
    try {
      if (input.isTTY && input.isRaw) input.setRawMode(false);
    } catch {
      // stdin already closed
    }
    if (output.isTTY) output.write(SHOW_CURSOR + LEAVE_ALTERNATE);
  };
  if (output.isTTY) output.write(ENTER_ALTERNATE);
  const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  const onSignal = (signal: NodeJS.Signals) => onFatal(signal);
  const onError = (error: unknown) => onFatal('uncaught error', error);
  for (const signal of signals) process.on(signal, onSignal);
  process.on('uncaughtException', onError);
  process.on('unhandledRejection', onError);
  // Last resort: whatever ends the process, the screen comes back.
  process.on('exit', restore);
  return {
    restore,
    dispose() {
      for (const signal of signals) process.off(signal, onSignal);
      process.off('uncaughtException', onError);
      process.off('unhandledRejection', onError);
      process.off('exit', restore);
    },
  };
}
