// Owns turning zod issues into short, user-facing problem descriptions (and "did you mean" hints).
import type { z } from 'zod';
import { formatPath } from './errors.js';

export interface DescribedIssue {
  /** The field, in the notation of formatPath ('' for the value itself). */
  field: string;
  reason: string;
}

export interface DescribeOptions {
  /** Known keys of the object at a path (formatted), used to suggest a fix for an unknown key. */
  knownKeys?: (path: string) => readonly string[] | undefined;
  /** What an unknown key is called in messages; default "key". */
  keyNoun?: string;
}

/** Describes the first of zod's issues; `input` is the value that was parsed (to show what was there). */
export function describeIssue(issue: z.core.$ZodIssue, input: unknown, options: DescribeOptions = {}): DescribedIssue {
  const path = issue.path.filter((seg): seg is string | number => typeof seg !== 'symbol');
  const field = formatPath(path);
  const got = valueAt(input, path);

  switch (issue.code) {
    case 'invalid_type':
      if (got === undefined) return { field, reason: 'is required' };
      return { field, reason: `must be ${expectedName(issue.expected)} (got ${kindOf(got)})` };
    case 'too_small':
      if (issue.origin === 'string' && Number(issue.minimum) === 1) return { field, reason: 'must not be empty' };
      if (issue.origin === 'array' || issue.origin === 'set') return { field, reason: `must have at least ${issue.minimum} items` };
      return { field, reason: `must be at least ${issue.minimum}${issue.inclusive === false ? ' (exclusive)' : ''} (got ${show(got)})` };
    case 'too_big':
      if (issue.origin === 'string') return { field, reason: `must be at most ${issue.maximum} characters` };
      if (issue.origin === 'array' || issue.origin === 'set') return { field, reason: `must have at most ${issue.maximum} items` };
      return { field, reason: `must be at most ${issue.maximum}${issue.inclusive === false ? ' (exclusive)' : ''} (got ${show(got)})` };
    case 'invalid_value':
      return { field, reason: `must be ${oneOf(issue.values)} (got ${show(got)})` };
    case 'invalid_union': {
      // zod lists the discriminator's allowed values at runtime without declaring them in the type
      const allowed = (issue as { options?: unknown }).options;
      if (issue.discriminator !== undefined && Array.isArray(allowed)) {
        return { field, reason: `must be ${oneOf(allowed)} (got ${show(got)})` };
      }
      return { field, reason: issue.message };
    }
    case 'unrecognized_keys': {
      const key = issue.keys[0] ?? '';
      const noun = options.keyNoun ?? 'key';
      const hint = suggest(key, options.knownKeys?.(field) ?? []);
      const more = issue.keys.length > 1 ? ` (also unknown: ${issue.keys.slice(1).map((k) => JSON.stringify(k)).join(', ')})` : '';
      return {
        field: formatPath([...path, key]),
        reason: `unknown ${noun}${hint ? `; did you mean ${JSON.stringify(hint)}?` : ''}${more}`,
      };
    }
    default:
      return { field, reason: issue.message };
  }
}

function valueAt(root: unknown, path: readonly (string | number)[]): unknown {
  let cur = root;
  for (const seg of path) {
    if (typeof cur !== 'object' || cur === null) return undefined;
    cur = (cur as Record<string | number, unknown>)[seg];
  }
  return cur;
}

function expectedName(expected: string): string {
  switch (expected) {
    case 'int':
      return 'a whole number';
    case 'array':
    case 'object':
      return `an ${expected}`;
    case 'record':
      return 'an object';
    default:
      return `a ${expected}`;
  }
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number' && !Number.isInteger(value)) return `${value}`;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return `${typeof value} ${JSON.stringify(value)}`;
  return typeof value === 'object' ? 'an object' : typeof value;
}

function show(value: unknown): string {
  return value === undefined ? 'nothing' : (JSON.stringify(value) ?? String(value));
}

function oneOf(values: readonly unknown[]): string {
  const list = values.map((v) => JSON.stringify(v));
  return list.length === 1 ? list[0] : `one of ${list.join(', ')}`;
}

/** The known key closest to `key` when it is close enough to be a likely typo. */
export function suggest(key: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of known) {
    const d = editDistance(key.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  const limit = Math.max(1, Math.min(3, Math.floor(key.length / 3)));
  return bestDistance <= limit ? best : undefined;
}

/** Levenshtein distance where swapping two adjacent characters also counts as one edit. */
function editDistance(a: string, b: string): number {
  const rows: number[][] = [Array.from({ length: b.length + 1 }, (_, j) => j)];
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const up = rows[i - 1];
      row[j] = Math.min(up[j] + 1, row[j - 1] + 1, up[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) row[j] = Math.min(row[j], rows[i - 2][j - 2] + 1);
    }
    rows.push(row);
  }
  return rows[a.length][b.length];
}
