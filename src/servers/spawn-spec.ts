// Owns what a stdio server's child process is started with (command, arguments, working folder and
// the whole environment), computed one way for the transport and for the early start of serve
// (prestart.ts), so a child started early is adopted only when it is exactly the one the connection
// would have started. Light on purpose: it runs before the SDK and zod are loaded.
import { childMarker } from '../config/self-reference.js';
import type { StdioLaunch } from '../config/types.js';

export interface StdioSpawnSpec {
  command: string;
  args: string[];
  /** The child's complete environment. */
  env: Record<string, string>;
  cwd?: string;
}

/**
 * The variables a child gets from the gateway when its entry does not ask for `inheritEnv`: the
 * safe base the SDK's stdio transport adds (its getDefaultEnvironment; a test keeps the two equal).
 */
const SAFE_BASE = process.platform === 'win32'
  ? ['APPDATA', 'COMSPEC', 'HOMEDRIVE', 'HOMEPATH', 'LOCALAPPDATA', 'PATH', 'PATHEXT', 'PROCESSOR_ARCHITECTURE', 'PROGRAMDATA', 'PROGRAMFILES', 'PROGRAMFILES(X86)', 'PROGRAMW6432', 'SYSTEMDRIVE', 'SYSTEMROOT', 'TEMP', 'USERNAME', 'USERPROFILE', 'WINDIR']
  : ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER'];

/** The safe base of this process's environment (values that look like shell functions are left out). */
export function safeBaseEnvironment(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const base: Record<string, string> = {};
  for (const name of SAFE_BASE) {
    const value = env[name];
    if (value !== undefined && !value.startsWith('()')) base[name] = value;
  }
  return base;
}

/**
 * The environment the transport hands the SDK (which puts the safe base under it): the gateway's own
 * secrets stay out of children unless the entry asks for `inheritEnv`; the gateway marker goes to
 * every child, so a Switchboard started by a wrapper notices its own config.
 */
export function entryEnvironment(launch: StdioLaunch): Record<string, string> {
  return { ...(launch.inheritEnv ? (process.env as Record<string, string>) : {}), ...launch.env, ...childMarker() };
}

/** What the child is started with, as the SDK's stdio transport would start it. */
export function stdioSpawnSpec(launch: StdioLaunch): StdioSpawnSpec {
  return {
    command: launch.command,
    args: [...launch.args],
    env: { ...safeBaseEnvironment(), ...entryEnvironment(launch) },
    ...(launch.cwd !== undefined && { cwd: launch.cwd }),
  };
}

/** Whether two specs start the same process. */
export function sameSpawnSpec(a: StdioSpawnSpec, b: StdioSpawnSpec): boolean {
  if (a.command !== b.command || a.cwd !== b.cwd || a.args.length !== b.args.length) return false;
  if (a.args.some((arg, i) => arg !== b.args[i])) return false;
  const names = Object.keys(a.env);
  return names.length === Object.keys(b.env).length && names.every((name) => Object.prototype.hasOwnProperty.call(b.env, name) && a.env[name] === b.env[name]);
}
