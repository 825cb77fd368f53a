// Owns UTC day arithmetic for metrics: day boundaries in ms and the YYYY-MM-DD labels of daily aggregates.

export const DAY_MS = 86_400_000;

/** Start (00:00:00.000 UTC) of the day containing `ms`. */
export function startOfUtcDay(ms: number): number {
  return Math.floor(ms / DAY_MS) * DAY_MS;
}

/** "YYYY-MM-DD" of the UTC day containing `ms`. */
export function utcDayLabel(ms: number): string {
  return new Date(startOfUtcDay(ms)).toISOString().slice(0, 10);
}

/** Start in ms of the UTC day labelled "YYYY-MM-DD". */
export function utcDayStart(label: string): number {
  return Date.parse(`${label}T00:00:00.000Z`);
}
