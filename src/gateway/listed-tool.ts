// Owns refusing, on a per-server endpoint, a tool name the server does not list: a made-up name is
// the client's error (-32602) and is never forwarded, so it creates no Prometheus series and no
// store rows (names are otherwise unbounded input). A cached listing is re-read live once first.
import { ProtocolError } from '@modelcontextprotocol/server';
import type { Catalog } from '../catalog/catalog.js';
import { closeMatches } from '../catalog/naming.js';

export async function ensureListedTool(catalog: Catalog, server: string, name: string): Promise<void> {
  const listed = () => {
    const listing = catalog.listing(server);
    // A server that could not be listed: forward and let it answer (its error says more than ours).
    return listing.error !== undefined || listing.tools.some((t) => t.name === name);
  };
  if (listed()) return;
  if (catalog.listing(server).cached) {
    await catalog.refresh(server);
    if (listed()) return;
  }
  const suggestions = closeMatches(name, catalog.listing(server).tools.map((t) => t.name as string));
  const hint = suggestions.length ? ` Did you mean: ${suggestions.join(', ')}?` : ' List tools to see what is available.';
  throw new ProtocolError(-32602, `Unknown tool: "${name.length > 100 ? `${name.slice(0, 100)}...` : name}" is not a tool of server "${server}".${hint}`, { suggestions });
}
