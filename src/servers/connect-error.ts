// Owns turning a failed connection attempt into one sentence a user can act on (command not
// found, not executable, unreachable URL, no answer to initialize), with the child's last words.
import { SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
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
  if (config.transport !== 'stdio') return `cannot reach ${config.url}: ${message}`;
  return `${message}${tail}`;
}
