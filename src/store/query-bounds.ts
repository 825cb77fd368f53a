// Owns reading the bounds of a store query from text, as the command line (--since, --limit) and the
// admin API (?since=, ?limit=) both take them, and the error a bad bound raises. The CLI exits 2 on it,
// the admin API answers 400; neither depends on the other for it.

/** A bound that cannot be read (a malformed --since or --limit); names the option and the value given. */
export class QueryBoundError extends Error {}

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };
const DURATION = /^(\d+(?:\.\d+)?)(ms|s|m|h|d|w)$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * A `--since` value as ms since epoch: a duration back from `now` (`90s`, `30m`, `24h`, `7d`, `2w`) or an
 * ISO date (`2025-06-01`, midnight UTC) or date-time (`2025-06-01T12:00:00Z`; without a zone, local time).
 * Throws QueryBoundError naming `label` otherwise.
 */
export function parseSince(value: string, label = '--since', now: number = Date.now()): number {
  const text = value.trim();
  const duration = DURATION.exec(text);
  if (duration) return now - Number(duration[1]) * UNIT_MS[duration[2]!]!;
  if (ISO_DATE.test(text)) {
    const at = Date.parse(text.replace(' ', 'T'));
    if (Number.isFinite(at)) return at;
  }
  throw new QueryBoundError(
    `${label} must be a duration like 30m, 24h or 7d, or an ISO date like 2025-06-01 or 2025-06-01T12:00:00Z (got "${value}")`,
  );
}

/** A positive whole number from a --limit style option (undefined stays undefined), or QueryBoundError. */
export function parseLimit(value: string | undefined, label = '--limit'): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new QueryBoundError(`${label} must be a whole number of rows >= 1 (got "${value}")`);
  return n;
}
