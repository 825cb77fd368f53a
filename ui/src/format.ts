// Owns turning numbers and times into the short text the tables show.

export function ms(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '–';
  if (value < 10) return `${value.toFixed(1)} ms`;
  if (value < 1000) return `${Math.round(value)} ms`;
  return `${(value / 1000).toFixed(value < 10_000 ? 2 : 1)} s`;
}

export function percent(rate: number | null | undefined): string {
  if (rate === null || rate === undefined) return '–';
  return `${(rate * 100).toFixed(rate === 1 || rate === 0 ? 0 : 1)} %`;
}

export function duration(fromIso: string | null): string {
  if (!fromIso) return '–';
  const seconds = Math.max(0, Math.floor((Date.now() - Date.parse(fromIso)) / 1000));
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m ${seconds % 60}s`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours}h ${minutes % 60}m`;
  return `${Math.floor(hours / 24)}d ${hours % 24}h`;
}

export function clock(at: number): string {
  const d = new Date(at);
  return `${d.toLocaleTimeString(undefined, { hour12: false })}.${String(d.getMilliseconds()).padStart(3, '0')}`;
}

export function ago(at: number | null | undefined): string {
  if (!at) return '–';
  return `${duration(new Date(at).toISOString())} ago`;
}
