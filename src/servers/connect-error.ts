// Owns turning a failed connection attempt into one sentence a user can act on (command not
// found, not executable, unreachable URL, no answer to initialize), with the child's last words.
import { SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import type { ServerConfig } from '../config/index.js';

export function describeConnectError(config: ServerConfig, error: unknown, stderr: readonly string[], timeoutMs: number): string {
  const tail = stderr.length ? ` (last stderr: ${stderr.at(-1)})` : '';
  if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout) return `no answer to initialize within ${timeoutMs} ms${tail}`;
  const err = error as NodeJS.ErrnoException;
  if (config.transport === 'stdio' && err?.code === 'ENOENT') return `command not found: "${config.command}" (is it installed and on PATH?)`;
  if (config.transport === 'stdio' && err?.code === 'EACCES') return `command is not executable: "${config.command}"`;
  const message = err?.message ?? String(error);
  if (config.transport !== 'stdio') return `cannot reach ${config.url}: ${message}`;
  return `${message}${tail}`;
}
