// Owns the small graphics of the terminal UI: a horizontal bar, the ●●●○○ dots of how much of a server is
// optimized, and formatting of durations and percentages.
import { Text } from 'ink';

export function barText(fraction: number, width: number): string {
  const f = Number.isFinite(fraction) ? Math.max(0, Math.min(1, fraction)) : 0;
  const full = Math.round(f * width);
  return '█'.repeat(full) + '░'.repeat(Math.max(0, width - full));
}

export function Bar({ fraction, width, color = 'green' }: { fraction: number; width: number; color?: string }) {
  return <Text color={color}>{barText(fraction, width)}</Text>;
}

/** Five dots, filled in proportion (●●●○○ for 3 of 5). */
export function dots(done: number, total: number, slots = 5): string {
  const filled = total === 0 || done === 0 ? 0 : Math.max(1, Math.round((done / total) * slots));
  return '●'.repeat(filled) + '○'.repeat(slots - filled);
}

export const pct = (x: number) => `${Math.round(x * 100)}%`;

export function duration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(s % 60).padStart(2, '0')}s`;
  const h = Math.floor(m / 60);
  return h < 48 ? `${h}h${String(m % 60).padStart(2, '0')}m` : `${Math.floor(h / 24)}d`;
}

/** Cuts text to `width` characters with an ellipsis. */
export function cut(text: string, width: number): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length <= width ? flat : `${flat.slice(0, Math.max(0, width - 1))}…`;
}
