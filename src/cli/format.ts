// Owns plain-text output of CLI listings: aligned columns, cut to a width, no colours in pipes.
export function table(headers: string[], rows: string[][], maxColumnWidth = 60): string {
  const cut = (value: string) => (value.length > maxColumnWidth ? `${value.slice(0, maxColumnWidth - 1)}…` : value);
  const cells = [headers, ...rows].map((row) => row.map((v) => cut(v.replace(/\s+/g, ' '))));
  const widths = headers.map((_, i) => Math.max(...cells.map((row) => row[i]?.length ?? 0)));
  return cells.map((row) => row.map((v, i) => (i === row.length - 1 ? v : v.padEnd(widths[i]!))).join('  ')).join('\n');
}

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}
