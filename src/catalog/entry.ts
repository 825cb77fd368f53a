// Owns the shape of one catalog entry (a tool, prompt, resource or template as a server listed it)
// and of one server's listing: their own module so the modules the catalog uses can name them
// without importing the catalog.
export type Entry = Record<string, unknown>;

export interface ServerListing {
  tools: Entry[];
  prompts: Entry[];
  resources: Entry[];
  resourceTemplates: Entry[];
  warnings: string[];
  /** Why the server contributes nothing right now. */
  error?: string;
  listedAt?: Date;
  /** Read from the store's cache of the last live listing; not listed live yet (the server may be starting or running). */
  cached?: boolean;
}
