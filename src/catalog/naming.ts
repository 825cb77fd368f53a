// Owns exposed tool names (DESIGN.md "Exposed names"): namespacing `<serverKey><sep><tool>`, sanitizing to
// [A-Za-z0-9_-] with a leading letter, the length budget (truncate + stable hash), deterministic collision
// resolution, the reverse map (a table, never string parsing) and "did you mean" suggestions.
// Pure functions, no I/O: the result depends only on the input list and the options.
import { shortHash } from './hash.js';

export interface NamingOptions {
  /** Between server key and tool name, and before a hash suffix. Default "_". */
  separator: string;
  /** Longest name Switchboard invents. Default 48, so `mcp__<gatewayKey>__<name>` fits 64. */
  budget: number;
  /** true: `<serverKey><sep><tool>`, sanitized and budgeted. false (per-server endpoints): original names untouched. */
  prefix: boolean;
}

export const DEFAULT_NAMING_OPTIONS: Readonly<NamingOptions> = Object.freeze({ separator: '_', budget: 48, prefix: true });

export interface NamedEntry {
  serverKey: string;
  originalName: string;
}

export interface NameTable {
  /** exposed name -> entry */
  resolve(exposed: string): NamedEntry | undefined;
  /** (serverKey, originalName) -> exposed name */
  exposedName(serverKey: string, originalName: string): string | undefined;
  /** Grouped by server key in order of first appearance, then in input order. */
  entries(): Array<{ exposed: string } & NamedEntry>;
  readonly size: number;
}

/** Hash length appended to truncated or colliding names. */
const HASH_LENGTH = 4;
/** Longest hash tried before falling back to salted hashes (12 base36 digits ≈ 62 bits). */
const LONGEST_HASH = 12;
/** Salted attempts after the longest hash still collides; reaching the end means a broken invariant. */
const MAX_SALTS = 1000;

/** Characters outside [A-Za-z0-9_-] (per code point) become "_"; a name not starting with a letter gets "t" in front. */
export function sanitizeName(raw: string): string {
  const replaced = raw.replace(/[^A-Za-z0-9_-]/gu, '_');
  return /^[A-Za-z]/.test(replaced) ? replaced : `t${replaced}`;
}

/**
 * Builds the exposed-name table for a catalog.
 * - prefix true: `sanitizeName(serverKey + separator + originalName)`; over budget, the name is cut and
 *   `separator + hash4` appended (hash of the full `serverKey + "\u0000" + originalName`) so it is exactly `budget` long.
 * - prefix false: the original name, byte for byte (no sanitizing, no truncation).
 * - Collisions: the first entry in input order keeps its name; later ones get `separator + hash` (4 characters,
 *   longer if that collides too), within budget. A name's owner never changes because of unrelated entries.
 * - A repeated (serverKey, originalName) pair is kept once (the first).
 */
export function buildNameTable(entries: readonly NamedEntry[], options: Partial<NamingOptions> = {}): NameTable {
  const { separator, budget, prefix } = { ...DEFAULT_NAMING_OPTIONS, ...options };
  const sep = prefix ? separator.replace(/[^A-Za-z0-9_-]/gu, '_') : separator;
  if (!Number.isInteger(budget) || budget < sep.length + HASH_LENGTH + 1) {
    throw new RangeError(
      `naming budget must be an integer of at least ${sep.length + HASH_LENGTH + 1} ` +
        `(separator "${sep}" + ${HASH_LENGTH}-character hash + 1 character), got ${budget}`,
    );
  }

  const unique = dedupe(entries);
  const keys = unique.map((e) => `${e.serverKey}\u0000${e.originalName}`);
  const bases = unique.map((e) => (prefix ? sanitizeName(`${e.serverKey}${separator}${e.originalName}`) : e.originalName));
  const candidates = bases.map((base, i) =>
    prefix && base.length > budget ? withHash(base, shortHash(keys[i], HASH_LENGTH), sep, budget) : base,
  );

  // Pass 1 claims every first-choice name (first in input order wins); pass 2 gives the losers hashed
  // names, so a hashed fallback never takes another entry's plain name.
  const taken = new Set<string>();
  const exposed: string[] = new Array(unique.length);
  const losers: number[] = [];
  candidates.forEach((candidate, i) => {
    if (taken.has(candidate)) losers.push(i);
    else {
      taken.add(candidate);
      exposed[i] = candidate;
    }
  });
  for (const i of losers) {
    exposed[i] = firstFree(hashedAlternatives(bases[i], keys[i], sep, budget), taken, unique[i]);
    taken.add(exposed[i]);
  }

  const byExposed = new Map<string, NamedEntry>();
  const byServer = new Map<string, Map<string, string>>();
  unique.forEach((entry, i) => {
    byExposed.set(exposed[i], entry);
    let names = byServer.get(entry.serverKey);
    if (!names) byServer.set(entry.serverKey, (names = new Map()));
    names.set(entry.originalName, exposed[i]);
  });

  return {
    resolve: (name) => byExposed.get(name),
    exposedName: (serverKey, originalName) => byServer.get(serverKey)?.get(originalName),
    entries: () => {
      const out: Array<{ exposed: string } & NamedEntry> = [];
      for (const [serverKey, names] of byServer) {
        for (const [originalName, name] of names) out.push({ exposed: name, serverKey, originalName });
      }
      return out;
    },
    size: byExposed.size,
  };
}

function dedupe(entries: readonly NamedEntry[]): NamedEntry[] {
  const seen = new Map<string, Set<string>>();
  const out: NamedEntry[] = [];
  for (const { serverKey, originalName } of entries) {
    let names = seen.get(serverKey);
    if (!names) seen.set(serverKey, (names = new Set()));
    if (names.has(originalName)) continue;
    names.add(originalName);
    out.push(Object.freeze({ serverKey, originalName }));
  }
  return out;
}

/** `base` cut so that `base + sep + hash` fits the budget (never splitting a surrogate pair). */
function withHash(base: string, hash: string, sep: string, budget: number): string {
  const room = budget - sep.length - hash.length;
  if (base.length <= room) return `${base}${sep}${hash}`;
  let end = room;
  const last = base.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${base.slice(0, end)}${sep}${hash}`;
}

function* hashedAlternatives(base: string, key: string, sep: string, budget: number): Generator<string> {
  const longest = Math.max(HASH_LENGTH, Math.min(LONGEST_HASH, budget - sep.length - 1));
  for (let n = HASH_LENGTH; n <= longest; n++) yield withHash(base, shortHash(key, n), sep, budget);
  for (let salt = 1; salt <= MAX_SALTS; salt++) yield withHash(base, shortHash(`${key}\u0000${salt}`, longest), sep, budget);
}

function firstFree(alternatives: Iterable<string>, taken: ReadonlySet<string>, entry: NamedEntry): string {
  for (const name of alternatives) if (!taken.has(name)) return name;
  throw new Error(
    `could not find a free exposed name for tool "${entry.originalName}" of server "${entry.serverKey}"; ` +
      'raise the naming budget or rename the server key',
  );
}

// ---- "did you mean" ----------------------------------------------------------------------------------------

/** Candidates scoring below this are not worth suggesting. */
const MIN_SCORE = 0.5;

/**
 * Up to `max` candidates close to `name`, best first, for "unknown tool" errors. Case-insensitive; scores
 * by Damerau-Levenshtein distance, containment (a missing or extra server prefix) and shared word tokens.
 */
export function closeMatches(name: string, candidates: Iterable<string>, max = 3): string[] {
  const query = name.trim().toLowerCase();
  if (query === '' || max <= 0) return [];
  const queryTokens = tokenize(name);
  const scored: Array<{ candidate: string; score: number; distance: number }> = [];
  for (const candidate of new Set(candidates)) {
    const lower = candidate.toLowerCase();
    const distance = editDistance(query, lower);
    const score = similarity(query, lower, distance, queryTokens, tokenize(candidate));
    if (score >= MIN_SCORE) scored.push({ candidate, score, distance });
  }
  scored.sort(
    (a, b) =>
      b.score - a.score ||
      a.distance - b.distance ||
      (a.candidate < b.candidate ? -1 : a.candidate > b.candidate ? 1 : 0),
  );
  return scored.slice(0, max).map((s) => s.candidate);
}

function similarity(a: string, b: string, distance: number, aTokens: string[], bTokens: string[]): number {
  if (a === b) return 1;
  const longer = Math.max(a.length, b.length);
  const shorter = Math.min(a.length, b.length);
  const edit = 1 - distance / longer;
  let contain = 0;
  if (shorter >= 3 && (b.includes(a) || a.includes(b))) {
    // "create_issue" for "github_create_issue": the server prefix is missing (or extra).
    const atEdge = b.endsWith(a) || a.endsWith(b) || b.startsWith(a) || a.startsWith(b);
    contain = 0.6 + 0.3 * (shorter / longer) + (atEdge ? 0.05 : 0);
  }
  const tokens = 0.9 * dice(aTokens, bTokens);
  return Math.max(edit, contain, tokens);
}

/** Lowercase word tokens: split on anything not alphanumeric and on camelCase boundaries. */
function tokenize(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((t) => t !== '');
}

function dice(a: string[], b: string[]): number {
  if (a.length === 0 || b.length === 0) return 0;
  const remaining = [...b];
  let shared = 0;
  for (const token of a) {
    const at = remaining.indexOf(token);
    if (at >= 0) {
      shared++;
      remaining.splice(at, 1);
    }
  }
  return (2 * shared) / (a.length + b.length);
}

/** Optimal-string-alignment distance: insertions, deletions, substitutions and adjacent transpositions. */
function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  if (a.length === 0) return b.length;
  if (b.length === 0) return a.length;
  let prevPrev = new Array<number>(b.length + 1).fill(0);
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  let row = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, prevPrev[j - 2] + 1);
      row[j] = best;
    }
    [prevPrev, prev, row] = [prev, row, prevPrev];
  }
  return prev[b.length];
}
