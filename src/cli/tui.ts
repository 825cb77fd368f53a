// Owns `switchboard tui`: checks its options and the terminal, works out the data dir, then loads the terminal UI
// (src/tui, with Ink and React) only now, so every other command starts without them.
import { dataDirOf } from './data-dir.js';
import { UsageError } from './errors.js';

export interface TuiOptions {
  url?: string;
  token?: string;
  dataDir?: string;
}

export async function tuiCommand(options: TuiOptions): Promise<void> {
  if (options.url !== undefined && !/^https?:\/\/[^/]+/.test(options.url)) throw new UsageError(`--url must be an http:// or https:// URL of a gateway (got "${options.url}")`);
  if (!process.stdin.isTTY || !process.stdout.isTTY) throw new UsageError('switchboard tui needs an interactive terminal (stdin and stdout must be a TTY)');
  const { runTui } = await import('../tui/main.js');
  await runTui({ ...(options.url && { url: options.url }), ...(options.token && { token: options.token }), dataDir: dataDirOf(options) });
}
