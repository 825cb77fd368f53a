// Owns turning a failed connection attempt into one sentence a user can act on (command not
// found, not executable, unreachable URL, credentials refused, no answer to initialize), with the
// child's last words.
import { SdkError, SdkErrorCode, SdkHttpError } from '@modelcontextprotocol/client';
import { loginHint } from '../auth/errors.js';
import type { ServerConfig } from '../config/index.js';

/** The child's last stderr lines, for a message: ` (last stderr: a | b | c)`, or ''. */
export function stderrSuffix(stderr: readonly string[], lines = 3): string {
  const tail = stderr.filter((line) => line.trim() !== '').slice(-lines);
  return tail.length ? ` (last stderr: ${tail.join(' | ')})` : '';
}

export function describeConnectError(config: ServerConfig, error: unknown, stderr: readonly string[], timeoutMs: number, exit?: string): string {
  const tail = stderrSuffix(stderr);
  // A child that exited while starting: its exit code and last words are the cause, not "Connection closed".
  if (exit) return `the server ${exit} while starting${tail}`;
  if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout) return `no answer to initialize within ${timeoutMs} ms${tail}`;
  const err = error as NodeJS.ErrnoException;
  if (config.transport === 'stdio' && err?.code === 'ENOENT') return `command not found: "${config.command}" (is it installed and on PATH?)`;
  if (config.transport === 'stdio' && err?.code === 'EACCES') return `command is not executable: "${config.command}"`;
  const message = err?.message ?? String(error);
  if (config.transport !== 'stdio' && error instanceof SdkHttpError && error.status === 401) {
    // Reached only when the gateway sends no stored login: the configured Authorization header was refused.
    const own = Object.keys(config.headers).some((h) => h.toLowerCase() === 'authorization');
    return own ? `${config.url} refused the "Authorization" header of the config (HTTP 401): renew that token, or remove the header and run switchboard login ${config.key}` : loginHint(config.key);
  }
  if (config.transport !== 'stdio') return `cannot reach ${config.url}: ${message}`;
  return `${message}${tail}`;
}
