// Owns opening a URL in the user's browser for `switchboard login`: $BROWSER when set ("none" turns
// it off), else open (macOS), start (Windows) or xdg-open (Linux and others, only with a display).
// Best effort: the caller always prints the URL too, so a browser that does not open costs nothing.
import { spawn } from 'node:child_process';

/** The command that would open `url`, or undefined when no browser should be tried. */
export function browserCommand(url: string, env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): { command: string; args: string[] } | undefined {
  const chosen = env.BROWSER?.trim();
  if (chosen === 'none' || chosen === '') return undefined;
  if (chosen) return { command: chosen, args: [url] };
  if (platform === 'darwin') return { command: 'open', args: [url] };
  if (platform === 'win32') return { command: 'cmd', args: ['/c', 'start', '""', url.replace(/&/g, '^&')] };
  if (!env.DISPLAY && !env.WAYLAND_DISPLAY) return undefined;
  return { command: 'xdg-open', args: [url] };
}

/** Starts the browser on `url` and returns at once; true when one was started. */
export function openBrowser(url: string): boolean {
  const how = browserCommand(url);
  if (!how) return false;
  try {
    const child = spawn(how.command, how.args, { stdio: 'ignore', detached: true });
    child.on('error', () => undefined); // not installed: the printed URL is the way
    child.unref();
    return true;
  } catch {
    return false;
  }
}
