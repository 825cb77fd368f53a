// Owns the shape of one catalog entry (a tool, prompt, resource or template as a server listed it):
// its own module so the modules the catalog uses can name it without importing the catalog.
export type Entry = Record<string, unknown>;
