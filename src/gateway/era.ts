// Owns what the gateway says about protocol eras. With `inboundEra: auto` (the default) both faces
// serve 2025-era sessions (initialize, Mcp-Session-Id) and 2026-07-28 requests (no handshake,
// version and capabilities in every request's `_meta`), chosen per request (HTTP) or per
// connection's opening (stdio). With `inboundEra: legacy` they serve the 2025 era only and answer
// the `server/discover` probe the way a 2025-era server does (method not found), so clients that
// probe first fall back to initialize at once.
export const DISCOVER_METHOD = 'server/discover';

/** The eras a face serves: both (auto) or the 2025 era only (legacy). */
export const INBOUND_ERAS = ['auto', 'legacy'] as const;
export type InboundEraSetting = (typeof INBOUND_ERAS)[number];
export const DEFAULT_INBOUND_ERA: InboundEraSetting = 'auto';

/** Protocol revisions of the 2026-07-28 era this gateway serves (the SDK's modern revisions). */
export const MODERN_REVISIONS: readonly string[] = ['2026-07-28'];

/**
 * The request methods a 2026-07-28 request may name here: the ones the gateway serves, and the ones
 * the SDK answers itself (server/discover, subscriptions/listen, and the 2025-only methods it refuses
 * with 404). Any other method is not implemented: the spec wants 404 with -32601 for it, which only
 * a refusal before dispatch gets (a handler's error is answered in-band with 200).
 */
export const MODERN_REQUEST_METHODS: ReadonlySet<string> = new Set([
  DISCOVER_METHOD,
  'subscriptions/listen',
  'tools/list',
  'tools/call',
  'prompts/list',
  'prompts/get',
  'resources/list',
  'resources/read',
  'resources/templates/list',
  'completion/complete',
  'initialize',
  'ping',
  'logging/setLevel',
  'resources/subscribe',
  'resources/unsubscribe',
]);

/** The era one client session speaks: legacy (2025, a handshake) or modern (2026-07-28). */
export type InboundEra = 'legacy' | 'modern';

/** The error a 2025-era server gives a `server/discover` request. */
export function discoverRefusal(): { code: number; message: string } {
  return { code: -32601, message: `Method not found: ${DISCOVER_METHOD} (this gateway serves the 2025-11-25 protocol era; send initialize)` };
}

/** Tools that change what one session sees: a 2026-07-28 client has no session for them to change. */
const SESSION_TOOLS = new Set(['equip-toolset', 'unequip-toolset']);

/** The tool error a modern client gets for equip/unequip (undefined for other tools). */
export function legacySessionOnly(tool: string): { isError: true; content: { type: 'text'; text: string }[] } | undefined {
  if (!SESSION_TOOLS.has(tool)) return undefined;
  return {
    isError: true,
    content: [
      {
        type: 'text',
        text: `${tool} changes what one session sees, and a 2026-07-28 client has no session: it is a 2025-era (initialize) session feature. Pick a toolset by URL instead: /toolsets/{name}/mcp or /mcp?toolset={name}.`,
      },
    ],
  };
}
