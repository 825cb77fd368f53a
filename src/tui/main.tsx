// Owns running the terminal UI (for `switchboard tui`, src/cli/tui.ts): finds the gateway (target.ts), takes over
// the terminal (alternate screen, restored on every way out by terminal.ts) and runs the Ink app until `q`, Ctrl+C
// or a signal.
import { render } from 'ink';
import { AdminClient } from './client.js';
import { resolveTarget } from './target.js';
import { guardTerminal } from './terminal.js';
import { App } from './app.js';
import { KeysProvider } from './hooks.js';

export async function runTui(options: { url?: string; token?: string; dataDir: string }): Promise<void> {
  const target = await resolveTarget(options);
  const client = new AdminClient(target.url, target.token);
  let instance: ReturnType<typeof render> | undefined;
  const guard = guardTerminal((reason, error) => {
    instance?.unmount();
    guard.restore();
    if (error) process.stderr.write(`switchboard tui: ${reason}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(error ? 1 : reason === 'SIGINT' ? 130 : 143);
  });
  try {
    instance = render(
      <KeysProvider>
        <App client={client} target={target} />
      </KeysProvider>,
      { exitOnCtrlC: true, patchConsole: true });
    await instance.waitUntilExit();
  } finally {
    guard.restore();
    guard.dispose();
  }
  // Streams and timers of the app may hold the loop open: the UI is gone, so is the process.
  process.exit(0);
}
