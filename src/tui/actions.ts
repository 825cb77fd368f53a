// Owns the list of every action of the terminal UI, grouped as the command menu shows them, each with its key.
export type ActionId = 'servers' | 'add-server' | 'activity' | 'clear-logs' | 'search' | 'optimization' | 'optimize-all' | 'export-report' | 'help' | 'connect' | 'quit';

export interface Action {
  id: ActionId;
  label: string;
  group: 'Server Management' | 'Activity' | 'Search' | 'Optimization' | 'Help';
  key: string;
}

export const ACTIONS: readonly Action[] = [
  { id: 'servers', label: 'View Servers', group: 'Server Management', key: 's' },
  { id: 'add-server', label: 'Add Server', group: 'Server Management', key: 'Ctrl+A' },
  { id: 'activity', label: 'Activity Log', group: 'Activity', key: 'l' },
  { id: 'clear-logs', label: 'Clear Logs', group: 'Activity', key: 'Ctrl+L' },
  { id: 'search', label: 'Search Tools', group: 'Search', key: '/' },
  { id: 'optimization', label: 'View Optimization', group: 'Optimization', key: 'o' },
  { id: 'optimize-all', label: 'Optimize All', group: 'Optimization', key: 'Ctrl+O' },
  { id: 'export-report', label: 'Export Report', group: 'Optimization', key: 'Ctrl+E' },
  { id: 'help', label: 'Help', group: 'Help', key: '?' },
  { id: 'connect', label: 'Connect Clients', group: 'Help', key: 'i' },
  { id: 'quit', label: 'Quit', group: 'Help', key: 'q' },
];

/** Fuzzy match: every character of the query appears in order in the text; lower scores are better. */
export function fuzzyScore(query: string, text: string): number | undefined {
  const q = query.toLowerCase().replace(/\s+/g, '');
  const t = text.toLowerCase();
  let position = -1;
  let gaps = 0;
  for (const ch of q) {
    const next = t.indexOf(ch, position + 1);
    if (next < 0) return undefined;
    gaps += next - position - 1;
    position = next;
  }
  return gaps;
}
