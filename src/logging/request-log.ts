// Owns request logging (`--log-requests`, setting logRequests): one line per request and its
// response, written when it ends, with requestId, correlationId, client session, server, tool,
// duration, status and payload sizes (one line, not two: each line costs more than the rest). Argument values are left out unless logArguments is on, and then their secrets
// are redacted (redact.ts) and the whole is bounded (bound.ts): every field is bounded here, since
// the file-only logger these lines go to does no bounding pass of its own (it costs more than the line). Off by default: `requestLog` stays
// undefined, so the hot path pays one check of a module binding.
import { DEFAULT_BOUNDS, bound, truncateString } from './bound.js';
import type { Logger } from './logger.js';
import { redactSecrets } from './redact.js';

/** What identifies one request in its log lines. */
export interface RequestFields {
  requestId: string | number;
  correlationId: string;
  session: string;
  method: string;
  server: string;
  /** The tool (or prompt) as the client named it. */
  tool?: string;
}

export interface RequestLogOptions {
  logArguments: boolean;
}

const SIZE_DEPTH = 8;
/** Longest tool name logged whole (names come from clients and servers). */
const MAX_NAME = 200;

/** Approximate size of a JSON payload: characters of its strings plus one per other value, walked to a bounded depth (no serializing). */
export function payloadSize(value: unknown, depth = 0): number {
  if (typeof value === 'string') return value.length;
  if (value === null || typeof value !== 'object') return value === undefined ? 0 : 1;
  if (depth >= SIZE_DEPTH) return 1;
  let size = 0;
  if (Array.isArray(value)) {
    for (const item of value) size += payloadSize(item, depth + 1);
    return size;
  }
  for (const key in value as Record<string, unknown>) size += key.length + payloadSize((value as Record<string, unknown>)[key], depth + 1);
  return size;
}

/** The fields with client-chosen strings (id, method, tool) cut to MAX_NAME; the same object when none is long. */
function bounded(fields: RequestFields): RequestFields {
  const long = (value: unknown) => typeof value === 'string' && value.length > MAX_NAME;
  if (!long(fields.requestId) && !long(fields.method) && !long(fields.tool)) return fields;
  const cut = <T>(value: T): T => (long(value) ? (truncateString(value as string, MAX_NAME) as T) : value);
  return { ...fields, requestId: cut(fields.requestId), method: cut(fields.method), ...(fields.tool !== undefined && { tool: cut(fields.tool) }) };
}

export class RequestLog {
  private readonly log: Logger;

  constructor(log: Logger, private readonly options: RequestLogOptions) {
    // Request lines are asked for explicitly: written at info even when the root level is higher.
    const level = log.isLevelEnabled('info') ? log.level : 'info';
    this.log = log.child({ module: 'requests' }, { level });
  }

  /** A request was answered (or failed, or was cancelled): one line with both sides. */
  request(fields: RequestFields, args: unknown, outcome: { durationMs: number; status: string; result?: unknown; error?: string }): void {
    this.log.info(
      {
        event: 'request',
        ...bounded(fields),
        durationMs: outcome.durationMs,
        status: outcome.status,
        argumentBytes: payloadSize(args),
        ...(outcome.result !== undefined && { resultBytes: payloadSize(outcome.result) }),
        ...(outcome.error !== undefined && { error: truncateString(outcome.error, DEFAULT_BOUNDS.maxString) }),
        ...(this.options.logArguments && args !== undefined && { args: bound(redactSecrets(args), { ...DEFAULT_BOUNDS, maxString: 500 }) }),
      },
      'request',
    );
  }

  /** A progress update of a running request was relayed. */
  progress(fields: RequestFields, progress: { progress?: unknown; total?: unknown }): void {
    const number = (value: unknown) => (typeof value === 'number' ? value : undefined);
    this.log.info({ event: 'progress', ...bounded(fields), progress: number(progress.progress), total: number(progress.total) }, 'progress');
  }

  /** A server sent a request (sampling, elicitation, roots) while `correlationId`'s call ran. */
  reverse(fields: { server: string; method: string; correlationId?: string; session?: string }): void {
    this.log.info({ event: 'server-request', ...fields, method: truncateString(fields.method, MAX_NAME) }, 'server request');
  }

  /** Logs a request answered by the gateway itself (meta-tools) around running it. */
  async local<T>(fields: RequestFields, args: unknown, run: () => Promise<T>): Promise<T> {
    const started = performance.now();
    const durationMs = () => Math.round((performance.now() - started) * 100) / 100;
    try {
      const result = await run();
      const status = (result as { isError?: unknown })?.isError === true ? 'tool_error' : 'ok';
      this.request(fields, args, { durationMs: durationMs(), status, result });
      return result;
    } catch (error) {
      this.request(fields, args, { durationMs: durationMs(), status: 'error', error: (error as Error).message });
      throw error;
    }
  }
}

/** The active request log, or undefined (the default): check it before building any fields. */
export let requestLog: RequestLog | undefined;

export function enableRequestLog(log: Logger, options: RequestLogOptions): RequestLog {
  requestLog = new RequestLog(log, options);
  return requestLog;
}

export function disableRequestLog(): void {
  requestLog = undefined;
}
