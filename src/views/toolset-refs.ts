// Owns turning what a user writes for a tool ("git.status", {server, tool}) into a (server, tool)
// reference checked against the catalog, with close matches when it names nothing.
import { closeMatches } from '../catalog/naming.js';
import type { Catalog } from '../catalog/catalog.js';
import type { ToolReference } from '../store/index.js';

/** As written in build-toolset: `{namespacedName: "server.tool"}` or `{server, tool}`. */
export type ToolReferenceInput = { namespacedName: string } | { server: string; tool: string };

export class ToolReferenceError extends Error {
  constructor(
    message: string,
    readonly reference: ToolReferenceInput,
    readonly suggestions: string[] = [],
  ) {
    super(message);
  }
}

/**
 * Splits "server.tool" at the server key it starts with (the longest, since keys and tool names may
 * both contain dots); `serverKeys` are the configured keys.
 */
export function parseReference(input: ToolReferenceInput, serverKeys: readonly string[]): ToolReference {
  if ('server' in input) return { server: input.server, tool: input.tool };
  const name = input.namespacedName;
  const key = [...serverKeys].sort((a, b) => b.length - a.length).find((k) => name.startsWith(`${k}.`));
  if (!key) {
    const suggestions = closeMatches(name.split('.')[0] ?? name, serverKeys);
    throw new ToolReferenceError(
      `"${name}" does not start with a configured server key and a dot (servers: ${serverKeys.join(', ') || 'none'}).`,
      input,
      suggestions,
    );
  }
  return { server: key, tool: name.slice(key.length + 1) };
}

/**
 * Checks a reference against the catalog. A tool the server does not list is an error with close
 * matches; a server that is down right now cannot be checked, so its references are kept.
 */
export function checkReference(reference: ToolReference, input: ToolReferenceInput, catalog: Catalog, serverKeys: readonly string[]): void {
  if (!serverKeys.includes(reference.server)) {
    throw new ToolReferenceError(`Unknown server "${reference.server}" (servers: ${serverKeys.join(', ') || 'none'}).`, input, closeMatches(reference.server, serverKeys));
  }
  const listing = catalog.listing(reference.server);
  if (listing.error) return;
  const names = listing.tools.map((t) => t.name as string);
  if (names.includes(reference.tool)) return;
  const suggestions = closeMatches(reference.tool, names).map((n) => `${reference.server}.${n}`);
  throw new ToolReferenceError(
    `Server "${reference.server}" has no tool "${reference.tool}".${suggestions.length ? ` Did you mean: ${suggestions.join(', ')}?` : ''}`,
    input,
    suggestions,
  );
}
