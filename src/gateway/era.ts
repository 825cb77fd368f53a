// Owns what the gateway says about protocol eras: it serves 2025-era sessions (initialize,
// Mcp-Session-Id) and answers the 2026-07-28 `server/discover` probe the way a 2025-era server
// does (method not found), so clients that probe first fall back to initialize at once.
export const DISCOVER_METHOD = 'server/discover';

/** The error a 2025-era server gives a `server/discover` request. */
export function discoverRefusal(): { code: number; message: string } {
  return { code: -32601, message: `Method not found: ${DISCOVER_METHOD} (this gateway serves the 2025-11-25 protocol era; send initialize)` };
}
