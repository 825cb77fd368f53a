// Owns catalog content hashing: canonical JSON (sorted keys), which fields of an entry count, and the entry key.
import { createHash } from 'node:crypto';
import { StoreError } from './errors.js';
import type { ListingEntry, ListingKind } from './types.js';

/** The tool fields a content hash covers; anything else (title, _meta, icons) may change without a "change". */
export const TOOL_HASHED_FIELDS = ['name', 'description', 'inputSchema', 'outputSchema', 'annotations'] as const;

/**
 * JSON with object keys sorted at every level, so the same data gives the same text whatever the key order.
 * Follows JSON.stringify otherwise: undefined properties are dropped, undefined array items and non-finite
 * numbers become null, toJSON() is honoured. Throws a TypeError on cycles and BigInts (not JSON).
 */
export function canonicalJson(value: unknown): string {
  return write(value, []) ?? 'null';
}

function write(value: unknown, stack: object[]): string | undefined {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? JSON.stringify(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      throw new TypeError('canonicalJson: BigInt values are not JSON');
    case 'object':
      break;
    default:
      return undefined; // undefined, functions, symbols: dropped like JSON.stringify does
  }
  const obj = value as { toJSON?: () => unknown };
  if (typeof obj.toJSON === 'function') return write(obj.toJSON(), stack);
  if (stack.includes(obj)) throw new TypeError('canonicalJson: the value contains a cycle');
  stack.push(obj);
  let out: string;
  if (Array.isArray(obj)) {
    out = `[${obj.map((item) => write(item, stack) ?? 'null').join(',')}]`;
  } else {
    const parts: string[] = [];
    const record = obj as Record<string, unknown>;
    for (const key of Object.keys(record).sort()) {
      const text = write(record[key], stack);
      if (text !== undefined) parts.push(`${JSON.stringify(key)}:${text}`);
    }
    out = `{${parts.join(',')}}`;
  }
  stack.pop();
  return out;
}

/** The part of an entry its content hash covers: the hashed tool fields for tools, the whole entry otherwise. */
export function hashedView(kind: ListingKind, entry: ListingEntry): ListingEntry {
  if (kind !== 'tools') return entry;
  const view: ListingEntry = {};
  for (const field of TOOL_HASHED_FIELDS) {
    if (entry[field] !== undefined) view[field] = entry[field];
  }
  return view;
}

/** sha256 (lowercase hex) of the canonical JSON of the entry's hashed view. */
export function contentHash(kind: ListingKind, entry: ListingEntry): string {
  return createHash('sha256').update(canonicalJson(hashedView(kind, entry)), 'utf8').digest('hex');
}

const KEY_FIELD: Record<ListingKind, string> = {
  tools: 'name',
  prompts: 'name',
  resources: 'uri',
  resourceTemplates: 'uriTemplate',
};

/** The field that identifies an entry of this kind across listings. */
export function keyField(kind: ListingKind): string {
  return KEY_FIELD[kind];
}

/** The entry's identity: name (tools, prompts), uri (resources) or uriTemplate (resource templates). */
export function entryKey(kind: ListingKind, entry: ListingEntry, where: string): string {
  const field = KEY_FIELD[kind];
  const key = entry?.[field];
  if (typeof key !== 'string' || key === '') {
    throw new StoreError(
      'invalid_input',
      `${where}: a ${kind} entry needs a non-empty string "${field}", got ${JSON.stringify(key) ?? 'undefined'}; ` +
        'pass the entries exactly as the server listed them',
    );
  }
  return key;
}
