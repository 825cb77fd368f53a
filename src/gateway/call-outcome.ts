// Owns classifying a finished tool call for the metrics store: its outcome, error class, first
// error text, and the size of its result (measured without serializing it again).
import { SERVER_LOGIN_REQUIRED, SERVER_TIMEOUT, SERVER_UNAVAILABLE } from '../servers/errors.js';
import type { CallOutcome } from '../store/index.js';

type Result = Record<string, unknown>;

export function outcomeOf(error: unknown): CallOutcome {
  const code = (error as { code?: unknown }).code;
  if (code === SERVER_TIMEOUT) return 'timeout';
  if (code === SERVER_UNAVAILABLE || code === SERVER_LOGIN_REQUIRED) return 'server_down';
  return 'protocol_error';
}

export function errorClassOf(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  return code !== undefined ? String(code) : ((error as Error)?.name ?? 'Error');
}

export function firstText(result: Result | undefined): string | undefined {
  const content = result?.content;
  if (!Array.isArray(content)) return undefined;
  const text = content.find((c: { type?: string }) => c?.type === 'text') as { text?: string } | undefined;
  return text?.text;
}

/** Size of a result without serializing it again: the text and binary payloads dominate. */
export function approximateSize(result: Result): number {
  let bytes = 0;
  const content = Array.isArray(result.content) ? (result.content as Array<Record<string, unknown>>) : [];
  for (const item of content) {
    if (typeof item.text === 'string') bytes += item.text.length;
    if (typeof item.data === 'string') bytes += item.data.length;
    const resource = item.resource as Record<string, unknown> | undefined;
    if (resource && typeof resource.text === 'string') bytes += resource.text.length;
    if (resource && typeof resource.blob === 'string') bytes += resource.blob.length;
  }
  return bytes;
}
