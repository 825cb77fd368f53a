// Owns the port through which description overrides reach the catalog, and the one function that may change a
// listed tool: it replaces `description` and nothing else (name, schemas, annotations stay the server's own).
import type { Entry } from './entry.js';

/** Supplies the effective tool list of a server from its canonical (as listed) tools. */
export interface DescriptionOverlay {
  /**
   * Called with every live or cached listing of a server's tools; returns the tools clients see. Implementations
   * change descriptions only through `withDescription`.
   */
  apply(server: string, tools: readonly Entry[]): Entry[];
}

/** A copy of `tool` whose description is `description`; every other field is the same value (shared, unchanged). */
export function withDescription(tool: Readonly<Entry>, description: string): Entry {
  return { ...tool, description };
}
