// Owns `switchboard tui`: finds the gateway (target.ts), takes over the terminal (alternate screen, restored on
// every way out by terminal.ts) and runs the Ink app until `q`, Ctrl+C or a signal. Loaded only for this command.
import { render } from 'ink';
import { dataDirOf } from '../cli/data-dir.js';
import { UsageError } from '../cli/errors.js';
import { AdminClient } from './client.js';
import { resolveTarget } from './target.js';
import { guardTerminal } from './terminal.js';
import { App } from './app.js';
import { KeysProvider } from './hooks.js';

export interface TuiOptions {
  url?: string;
  token?: string;
  dataDir?: string;
}

export async function tuiCommand(options: TuiOptions): Promise<void> {
  if (options.url !== undefined && !/^https?:\/\/[^/]+/.test(options.url)) throw new UsageError(`--url must be an http:// or https:// URL of a gateway (got "${options.url}")`);
  if (!process.stdin.isTTY) throw new UsageError('switchboard tui needs an interactive terminal (stdin is not a TTY)');
  const target = await resolveTarget({ ...options, dataDir: dataDirOf(options) });
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
