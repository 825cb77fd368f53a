// Owns keeping logged objects small and safe: long strings cut with their size noted, deep or wide
// objects and arrays cut, circular references replaced, errors reduced to type, message and code
// (stack traces only when asked for, i.e. at debug). Pure functions; the logger applies them per line.

export interface BoundOptions {
  /** Longest string kept whole (characters); longer ones are cut and their length noted. */
  maxString: number;
  /** Nesting kept; deeper values become "[Object]" / "[Array]". */
  maxDepth: number;
  /** Array items and object keys kept per level; the rest is counted. */
  maxItems: number;
  /** Keep `stack` on errors. */
  stacks: boolean;
}

export const DEFAULT_BOUNDS: BoundOptions = { maxString: 2000, maxDepth: 5, maxItems: 50, stacks: false };

/** A string cut to `max` characters with its full length noted. */
export function truncateString(value: string, max: number): string {
  return value.length > max ? `${value.slice(0, max)}…[truncated: ${value.length} chars]` : value;
}

/** An error as a plain object: type, message, code (and stack when `stacks`). */
export function serializeError(error: unknown, options: Pick<BoundOptions, 'stacks' | 'maxString'> = DEFAULT_BOUNDS): Record<string, unknown> {
  if (!(error instanceof Error)) return { message: truncateString(String(error), options.maxString) };
  const code = (error as { code?: unknown }).code;
  return {
    type: error.name,
    message: truncateString(error.message, options.maxString),
    ...(code !== undefined && { code }),
    ...(options.stacks && error.stack && { stack: error.stack }),
  };
}

/**
 * A copy of `value` within the bounds. Values that need no change are returned as they are (no
 * copy), so the common small log object costs one walk and no allocation.
 */
export function bound(value: unknown, options: BoundOptions = DEFAULT_BOUNDS): unknown {
  return walk(value, options, 0, []);
}

function walk(value: unknown, options: BoundOptions, depth: number, ancestors: object[]): unknown {
  if (typeof value === 'string') return value.length > options.maxString ? truncateString(value, options.maxString) : value;
  if (typeof value === 'bigint') return value.toString();
  if (value === null || typeof value !== 'object') return value;
  if (ancestors.includes(value)) return '[Circular]';
  if (value instanceof Error) return serializeError(value, options);
  if (Buffer.isBuffer(value) || ArrayBuffer.isView(value)) return `[binary: ${(value as ArrayBufferView).byteLength} bytes]`;
  if (depth >= options.maxDepth) return Array.isArray(value) ? `[Array: ${value.length} items]` : '[Object]';
  ancestors.push(value);
  try {
    if (Array.isArray(value)) return walkArray(value, options, depth, ancestors);
    if (value instanceof Map || value instanceof Set) return `[${value.constructor.name}: ${value.size} entries]`;
    return walkObject(value as Record<string, unknown>, options, depth, ancestors);
  } finally {
    ancestors.pop();
  }
}

function walkArray(value: unknown[], options: BoundOptions, depth: number, ancestors: object[]): unknown[] {
  let out: unknown[] | undefined;
  const kept = Math.min(value.length, options.maxItems);
  for (let i = 0; i < kept; i++) {
    const item = walk(value[i], options, depth + 1, ancestors);
    if (item !== value[i] && !out) out = value.slice(0, i);
    if (out) out.push(item);
  }
  if (value.length > kept) {
    out ??= value.slice(0, kept);
    out.push(`…[${value.length - kept} more items]`);
  }
  return out ?? value;
}

function walkObject(value: Record<string, unknown>, options: BoundOptions, depth: number, ancestors: object[]): Record<string, unknown> {
  let out: Record<string, unknown> | undefined;
  const keys = Object.keys(value);
  const kept = Math.min(keys.length, options.maxItems);
  for (let i = 0; i < kept; i++) {
    const key = keys[i]!;
    const original = value[key];
    const item = walk(original, options, depth + 1, ancestors);
    if (item !== original && !out) {
      out = {};
      for (let j = 0; j < i; j++) out[keys[j]!] = value[keys[j]!];
    }
    if (out) out[key] = item;
  }
  if (keys.length > kept) {
    if (!out) {
      out = {};
      for (let j = 0; j < kept; j++) out[keys[j]!] = value[keys[j]!];
    }
    out['…'] = `${keys.length - kept} more keys`;
  }
  return out ?? value;
}
