// Owns the short "what changed" summary of an updated catalog entry: the paths of differing hashed fields.
import { canonicalJson, hashedView } from './content-hash.js';
import type { ListingEntry, ListingKind } from './types.js';

export interface DiffSummaryOptions {
  /** Deepest path reported, in segments (default 3: "inputSchema.properties.path"). */
  maxDepth?: number;
  /** Most paths reported; further ones are summed up as "+N more" (default 8). */
  maxPaths?: number;
}

/**
 * Paths where the hashed views of two entries differ, in sorted key order: descends into plain objects on both
 * sides up to `maxDepth` segments; arrays and values of different types are reported whole.
 * E.g. ["description", "inputSchema.properties.path", "inputSchema.required"].
 */
export function diffSummary(
  kind: ListingKind,
  before: ListingEntry,
  after: ListingEntry,
  options: DiffSummaryOptions = {},
): string[] {
  const maxDepth = options.maxDepth ?? 3;
  const maxPaths = options.maxPaths ?? 8;
  const paths: string[] = [];
  collect(hashedView(kind, before), hashedView(kind, after), '', 1, maxDepth, paths);
  if (paths.length <= maxPaths) return paths;
  const kept = paths.slice(0, maxPaths - 1);
  kept.push(`+${paths.length - kept.length} more`);
  return kept;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function collect(a: unknown, b: unknown, prefix: string, depth: number, maxDepth: number, out: string[]): void {
  if (!isPlainObject(a) || !isPlainObject(b)) return;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const key of [...keys].sort()) {
    const left = a[key];
    const right = b[key];
    if (left === undefined && right === undefined) continue;
    if (left !== undefined && right !== undefined && canonicalJson(left) === canonicalJson(right)) continue;
    const path = prefix ? `${prefix}.${key}` : key;
    if (depth < maxDepth && isPlainObject(left) && isPlainObject(right)) {
      collect(left, right, path, depth + 1, maxDepth, out);
    } else {
      out.push(path);
    }
  }
}
