// Owns which gateway the terminal UI talks to: --url/--token when given, else the running daemon of the data dir
// (its URL and token from <data dir>/daemon/), else the default `serve --http` address on 127.0.0.1.
import { findDaemon } from '../daemon/control.js';

export const DEFAULT_URL = 'http://127.0.0.1:3333';

export interface Target {
  url: string;
  token?: string;
  /** Where the URL came from, shown in the header and the connect screen. */
  source: 'flag' | 'daemon' | 'default';
}

export async function resolveTarget(options: { url?: string; token?: string; dataDir: string }): Promise<Target> {
  const token = options.token ?? (process.env.SWITCHBOARD_TOKEN || undefined);
  if (options.url) return { url: options.url.replace(/\/+$/, ''), ...(token && { token }), source: 'flag' };
  const daemon = await findDaemon(options.dataDir).catch(() => undefined);
  if (daemon) return { url: daemon.state.url, token: token ?? daemon.token, source: 'daemon' };
  return { url: DEFAULT_URL, ...(token && { token }), source: 'default' };
}
