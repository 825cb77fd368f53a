// Owns the token budget of a tools/list: what each mode would cost a client (passthrough: every
// tool; meta: the three meta-tools plus keepTools) and the start-up warning when passthrough would
// exceed tokenBudget or maxTools.
import type { Entry } from '../catalog/catalog.js';
import { metaToolDefinitions, summaryOf } from './meta-tools.js';
import { TOKEN_ENCODING, listingJson, listingTokens } from './tokens.js';

export interface ModeCost {
  tools: number;
  tokens: number;
}

export interface TokenReport {
  encoding: string;
  passthrough: ModeCost;
  meta: ModeCost;
}

/** `tools`: the exposed tools (catalog.tools()); each needs its server (`server`) for the meta description. */
export function tokenReport(tools: readonly Entry[], servers: Array<{ key: string; tools: number }>, keepTools: readonly string[] = []): TokenReport {
  const keep = new Set(keepTools);
  const meta = [...metaToolDefinitions({ total: tools.length, servers }), ...tools.filter((t) => keep.has(t.name as string))];
  return {
    encoding: TOKEN_ENCODING,
    passthrough: { tools: tools.length, tokens: listingTokens(tools) },
    meta: { tools: meta.length, tokens: listingTokens(meta) },
  };
}

export { summaryOf };

export function budgetWarning(tools: readonly Entry[], options: { tokenBudget: number; maxTools: number; mode: string }): { message: string; fields: Record<string, unknown> } | undefined {
  if (options.mode === 'meta' || options.mode === 'toolset') return undefined;
  // A token covers at least one UTF-8 byte, so a listing of at most tokenBudget bytes is within the
  // budget without loading the encoder (about 65 MB of memory for a check that then says nothing).
  if (tools.length <= options.maxTools && Buffer.byteLength(listingJson(tools)) <= options.tokenBudget) return undefined;
  const tokens = listingTokens(tools);
  const overTokens = tokens > options.tokenBudget;
  const overTools = tools.length > options.maxTools;
  if (!overTokens && !overTools) return undefined;
  const why = [overTokens && `${tokens} tokens > tokenBudget ${options.tokenBudget}`, overTools && `${tools.length} tools > maxTools ${options.maxTools}`].filter(Boolean).join(', ');
  const now = options.mode === 'auto' ? ' (auto mode serves the meta-tools now)' : '';
  return {
    message: `tools/list in passthrough is over budget (${why})${now}: consider --mode meta (3 tools) or a toolset (--mode toolset) to cut it`,
    fields: { passthroughTokens: tokens, tools: tools.length, tokenBudget: options.tokenBudget, maxTools: options.maxTools, mode: options.mode, encoding: TOKEN_ENCODING },
  };
}
