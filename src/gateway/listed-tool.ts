// Owns telling, on a per-server endpoint, whether a tool name is one the server lists. A name it
// does not list is still forwarded (the server's own error is the faithful answer, verbatim), but the
// call is not recorded, so made-up names create no Prometheus series and no store rows (names are
// otherwise unbounded input). A cached listing is re-read live once first.
import type { Catalog } from '../catalog/catalog.js';

export async function isListedTool(catalog: Catalog, server: string, name: string): Promise<boolean> {
  const listed = () => {
    const listing = catalog.listing(server);
    // A server that could not be listed: forward and record (its error says more than ours).
    return listing.error !== undefined || listing.tools.some((t) => t.name === name);
  };
  if (listed()) return true;
  if (catalog.listing(server).cached) {
    await catalog.refresh(server);
    if (listed()) return true;
  }
  return false;
}
