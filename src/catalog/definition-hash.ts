// Owns what a tool's pinned definition is and when two definitions are the same: the server's canonical
// fields (name, description, inputSchema, outputSchema, annotations), normalized so that equivalent JSON
// hashes alike (key order; annotation hints equal to the MCP defaults, or an empty annotations object,
// count as absent), and a readable diff of two definitions. Pure functions.
import { createHash } from 'node:crypto';
import { canonicalJson, diffSummary, hashedView } from '../store/index.js';
import type { Entry } from './entry.js';

/** MCP ToolAnnotations defaults: a hint with its default value says nothing more than an absent one. */
const HINT_DEFAULTS: Readonly<Record<string, boolean>> = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: true,
};

/** The fields of a tool that are pinned (what the server listed; never our description override). */
export function pinnedView(tool: Readonly<Entry>): Entry {
  return hashedView('tools', tool as Entry);
}

/** The pinned view with equivalent forms made equal (see the header). */
export function normalizeDefinition(tool: Readonly<Entry>): Entry {
  const view = pinnedView(tool);
  const annotations = view.annotations;
  if (annotations && typeof annotations === 'object' && !Array.isArray(annotations)) {
    const kept = Object.fromEntries(
      Object.entries(annotations as Record<string, unknown>).filter(([key, value]) => value !== undefined && !(key in HINT_DEFAULTS && HINT_DEFAULTS[key] === value)),
    );
    if (Object.keys(kept).length) view.annotations = kept;
    else delete view.annotations;
  }
  return view;
}

/** sha256 (hex) of the normalized definition's canonical JSON. */
export function definitionHash(tool: Readonly<Entry>): string {
  return createHash('sha256').update(canonicalJson(normalizeDefinition(tool)), 'utf8').digest('hex');
}

/** Paths that differ between two definitions, normalized first (e.g. ["description", "inputSchema.properties.path"]). */
export function changedPaths(before: Readonly<Entry>, after: Readonly<Entry>, maxPaths = 8): string[] {
  return diffSummary('tools', normalizeDefinition(before), normalizeDefinition(after), { maxDepth: 4, maxPaths });
}

/**
 * A diff a person can review before approving: per changed path, the pinned value (-) and the new one (+),
 * as JSON; long values are cut at `maxValueChars`.
 */
export function definitionDiff(before: Readonly<Entry>, after: Readonly<Entry>, maxValueChars = 2000): string {
  const a = normalizeDefinition(before);
  const b = normalizeDefinition(after);
  const lines: string[] = [];
  for (const path of diffSummary('tools', a, b, { maxDepth: 4, maxPaths: 50 })) {
    lines.push(`${path}:`);
    lines.push(`  - ${show(valueAt(a, path), maxValueChars)}`);
    lines.push(`  + ${show(valueAt(b, path), maxValueChars)}`);
  }
  return lines.join('\n');
}

function valueAt(entry: Entry, path: string): unknown {
  if (path.startsWith('+')) return undefined; // "+N more"
  let value: unknown = entry;
  for (const segment of path.split('.')) {
    if (!value || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[segment];
  }
  return value;
}

function show(value: unknown, max: number): string {
  if (value === undefined) return '(absent)';
  const text = canonicalJson(value);
  return text.length > max ? `${text.slice(0, max)}... (${text.length} characters)` : text;
}
