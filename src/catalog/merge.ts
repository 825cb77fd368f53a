// Owns merging the servers' listings into what a client sees, as pure functions over the listings in
// server order: the exposed-name tables of tools and prompts, entries under their exposed names (the
// original name as title when they have none), resources (a URI listed twice belongs to the first
// server) and the matchers of resource templates.
import { UriTemplate } from '@modelcontextprotocol/server';
import type { Entry, ServerListing } from './entry.js';
import { buildNameTable, type NameTable, type NamedEntry } from './naming.js';

/** Listings in server order (the config's), each with its server key. */
export type OrderedListings = Array<[string, ServerListing]>;

export interface ResourceTemplateMatcher {
  server: string;
  template: UriTemplate;
}

/** The exposed-name table of every server's tools or prompts (namespaced, within the length budget). */
export function nameTableOf(ordered: OrderedListings, kind: 'tools' | 'prompts', naming: { separator: string; budget: number }): NameTable {
  const entries: NamedEntry[] = ordered.flatMap(([serverKey, listing]) => listing[kind].map((e) => ({ serverKey, originalName: e.name as string })));
  return buildNameTable(entries, { separator: naming.separator, budget: naming.budget, prefix: true });
}

/** Every tool or prompt under its exposed name; the original name goes into `title` when the entry has none. */
export function exposeNamed(ordered: OrderedListings, kind: 'tools' | 'prompts', table: NameTable): Entry[] {
  return ordered.flatMap(([serverKey, listing]) =>
    listing[kind].map((entry) => {
      const exposed = table.exposedName(serverKey, entry.name as string)!;
      if (exposed === entry.name) return entry;
      return entry.title === undefined ? { ...entry, name: exposed, title: entry.name } : { ...entry, name: exposed };
    }),
  );
}

/** Resources of every server; a URI listed by two servers belongs to the first. */
export function firstOwnerResources(ordered: OrderedListings): Entry[] {
  const seen = new Set<string>();
  return ordered.flatMap(([, listing]) =>
    listing.resources.filter((r) => {
      const uri = r.uri as string;
      if (seen.has(uri)) return false;
      seen.add(uri);
      return true;
    }),
  );
}

/** A matcher per resource template that parses (one that does not is left out). */
export function templateMatchers(ordered: OrderedListings): ResourceTemplateMatcher[] {
  return ordered.flatMap(([server, listing]) =>
    listing.resourceTemplates.flatMap((t) => {
      try {
        return [{ server, template: new UriTemplate(t.uriTemplate as string) }];
      } catch {
        return [];
      }
    }),
  );
}
