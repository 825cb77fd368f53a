// Owns what a failed tool call brings back besides its error: similar tools as fallback suggestions (in
// structuredContent plus one text line for an isError result, in the error's data for a protocol error), and the
// autoRetryFallback path that tries the first suggestion with the same arguments and reports both outcomes.
import type { JSONRPCRequest, ServerContext } from '@modelcontextprotocol/server';
import type { Catalog } from '../catalog/catalog.js';
import type { NamedEntry } from '../catalog/naming.js';
import type { FallbackSuggestion } from '../views/fallbacks.js';

type Params = Record<string, unknown>;
type Result = Record<string, unknown>;

/** What the fallback path needs from the session that made the call. */
export interface FallbackHost {
  forwardTool(catalog: Catalog, entry: NamedEntry, exposed: string, request: JSONRPCRequest, params: Params, ctx: ServerContext, retrying?: boolean): Promise<Result>;
}

/** An isError result with the suggestions added: one text line and `structuredContent.fallback_suggestions`. */
export function withSuggestions(result: Result, suggestions: FallbackSuggestion[]): Result {
  const structured = result.structuredContent && typeof result.structuredContent === 'object' && !Array.isArray(result.structuredContent) ? (result.structuredContent as Params) : {};
  const content = Array.isArray(result.content) ? result.content : [];
  return {
    ...result,
    content: [...content, { type: 'text', text: `Fallback suggestions: ${suggestions.map((s) => s.toolKey).join(', ')} (similar tools; see structuredContent.fallback_suggestions).` }],
    structuredContent: { ...structured, fallback_suggestions: suggestions },
  };
}

/** A protocol error's data with the suggestions added (the error is rethrown by the caller). */
export function suggestInError(failure: { data?: unknown }, suggestions: FallbackSuggestion[]): void {
  const data = failure.data && typeof failure.data === 'object' && !Array.isArray(failure.data) ? (failure.data as Params) : failure.data === undefined ? {} : { detail: failure.data };
  failure.data = { ...data, fallback_suggestions: suggestions };
}

/** A thrown protocol error as the isError result autoRetryFallback reports it as. */
export function failureResult(failure: { code?: unknown; data?: unknown; message?: string }): Result {
  return { isError: true, content: [{ type: 'text', text: failure.message ?? String(failure) }], structuredContent: { code: failure.code, data: failure.data ?? null } };
}

/**
 * autoRetryFallback: the call failed, so the first suggestion is tried with the same arguments;
 * the answer carries both outcomes (the fallback's content, then what the original said).
 */
export async function retryWithFallback(host: FallbackHost, catalog: Catalog, fallbackKey: string, exposed: string, original: Result, request: JSONRPCRequest, params: Params, ctx: ServerContext): Promise<Result> {
  const entry = catalog.toolTable.resolve(fallbackKey);
  if (!entry) return original;
  const retried: Result = await host.forwardTool(catalog, entry, fallbackKey, request, { ...params, name: entry.originalName }, ctx, true).catch(
    (error: Error): Result => ({ isError: true, content: [{ type: 'text', text: error.message }] }),
  );
  const content = Array.isArray(retried.content) ? retried.content : [];
  const originalText = (Array.isArray(original.content) ? original.content : []).map((c: { text?: string }) => c.text).filter(Boolean).join(' ');
  return {
    ...retried,
    content: [{ type: 'text', text: `${exposed} failed (${originalText.slice(0, 300)}); retried with ${fallbackKey}:` }, ...content],
    structuredContent: { ...(retried.structuredContent as Params | undefined), auto_retry: { failed: exposed, original, retried_with: fallbackKey } },
  };
}
