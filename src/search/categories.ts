// Owns the tool categories of search and meta mode: a small keyword table over a tool's server key,
// name and description. A tool gets the category whose keywords it mentions most, the server key's
// words counting three times and the name's twice (a server's domain outweighs a generic verb such as
// "search" in one tool's name); plurals match their singular; ties: the earlier row; none: "other".
// A whole server's tools are inferred together (inferCategories): what its tools are mostly about
// counts for each of them, so one tool with a generic verb ("search_nodes" of a memory server that
// is keyed "kg") stays with its siblings whatever the server key says.
// Deliberately simple and predictable; the table is documented in docs/meta-mode.md.

export interface Category {
  name: string;
  description: string;
  keywords: readonly string[];
}

export const CATEGORIES: readonly Category[] = [
  { name: 'files', description: 'Read, write, list and search files and directories', keywords: ['file', 'files', 'directory', 'directories', 'folder', 'path', 'filesystem'] },
  { name: 'code', description: 'Repositories, issues, pull requests, commits, branches', keywords: ['git', 'github', 'gitlab', 'repository', 'repo', 'commit', 'branch', 'pull', 'issue', 'merge', 'code'] },
  { name: 'database', description: 'SQL and key-value stores, queries and tables', keywords: ['sql', 'database', 'table', 'postgres', 'postgresql', 'mysql', 'sqlite', 'redis', 'mongodb'] },
  { name: 'web', description: 'Web search, fetching pages and URLs', keywords: ['search', 'web', 'fetch', 'url', 'http', 'scrape', 'crawl', 'news', 'internet'] },
  { name: 'browser', description: 'Drive a browser: navigate, click, screenshots', keywords: ['browser', 'navigate', 'click', 'screenshot', 'puppeteer', 'playwright', 'page', 'dom'] },
  { name: 'communication', description: 'Messages, channels, email, chat', keywords: ['slack', 'message', 'messages', 'channel', 'email', 'mail', 'chat', 'post', 'reply', 'send'] },
  { name: 'knowledge', description: 'Memory, knowledge graphs, entities, notes', keywords: ['memory', 'knowledge', 'graph', 'entity', 'entities', 'relation', 'relations', 'observation', 'observations', 'note', 'notes'] },
  { name: 'documents', description: 'Documents, drives, spreadsheets, PDFs', keywords: ['document', 'documents', 'drive', 'gdrive', 'sheet', 'spreadsheet', 'pdf', 'docs'] },
  { name: 'maps', description: 'Places, geocoding, directions, distances', keywords: ['map', 'maps', 'location', 'geocode', 'place', 'places', 'directions', 'distance', 'address', 'elevation'] },
  { name: 'media', description: 'Images, audio and video', keywords: ['image', 'images', 'audio', 'video', 'picture', 'photo', 'art', 'generate'] },
  { name: 'reasoning', description: 'Step-by-step thinking and planning aids', keywords: ['thinking', 'thought', 'reasoning', 'reflect', 'plan', 'problem'] },
  { name: 'time', description: 'Dates, times, time zones, calendars', keywords: ['time', 'date', 'timezone', 'calendar', 'schedule', 'clock'] },
  { name: 'utilities', description: 'Echo, math, testing and diagnostics', keywords: ['echo', 'add', 'sum', 'calculate', 'math', 'test', 'debug', 'env', 'environment', 'sample', 'annotated', 'ping', 'log', 'demo', 'demonstrates', 'simulate', 'simulated', 'simulates', 'toggle', 'toggles', 'debugging'] },
];

export const OTHER: Category = { name: 'other', description: 'Tools that fit no other category', keywords: [] };

const KEYWORD_INDEX: ReadonlyMap<string, number[]> = (() => {
  const index = new Map<string, number[]>();
  CATEGORIES.forEach((category, row) => {
    for (const keyword of category.keywords) index.set(keyword, [...(index.get(keyword) ?? []), row]);
  });
  return index;
})();

/** Lower-case words of a text (camelCase and snake_case split). */
function words(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/** Rows of a word's keyword, trying its singular when the plural is not in the table. */
function rowsOf(word: string): readonly number[] {
  return KEYWORD_INDEX.get(word) ?? (word.endsWith('ies') ? KEYWORD_INDEX.get(`${word.slice(0, -3)}y`) : word.endsWith('s') ? KEYWORD_INDEX.get(word.slice(0, -1)) : undefined) ?? [];
}

/** The category of a tool from its server key (counted three times), name (twice) and description. */
export function inferCategory(name: string, description = '', server = ''): string {
  return pick(...categoryCounts(name, description, server));
}

/** Weight of the server's profile: the share of its tools in a category, counted like a server-key word. */
const SIBLING_WEIGHT = 3;

/**
 * Categories of one server's tools, in order: each tool's own counts plus SIBLING_WEIGHT x the share of
 * the server's tools whose own category it is. A server whose tools all agree changes nothing.
 */
export function inferCategories(tools: ReadonlyArray<{ name: string; description?: string }>, server = ''): string[] {
  const own = tools.map((t) => categoryCounts(t.name, t.description ?? '', server));
  const votes = new Array<number>(CATEGORIES.length).fill(0);
  for (const [counts, fromServer] of own) {
    const row = CATEGORIES.findIndex((c) => c.name === pick(counts, fromServer));
    if (row >= 0) votes[row]!++;
  }
  return own.map(([counts, fromServer]) => pick(counts.map((c, row) => c + (SIBLING_WEIGHT * votes[row]!) / tools.length), fromServer));
}

/** Per category: the weighted keyword count of a tool, and the part of it the server key gave. */
function categoryCounts(name: string, description: string, server: string): [number[], number[]] {
  const counts = new Array<number>(CATEGORIES.length).fill(0);
  const weighted: Array<[string[], number]> = [
    [words(server), 3],
    [words(name), 2],
    [words(description), 1],
  ];
  const fromServer = new Array<number>(CATEGORIES.length).fill(0);
  for (const [list, weight] of weighted) {
    for (const word of list) {
      for (const row of rowsOf(word)) {
        counts[row]! += weight;
        if (list === weighted[0]![0]) fromServer[row]! += weight;
      }
    }
  }
  return [counts, fromServer];
}

/** The best-counted category (ties: the one the server key says, then the earlier row), or "other". */
function pick(counts: readonly number[], fromServer: readonly number[]): string {
  // Ties go to the category the server key says, then to the earlier row.
  let best = -1;
  counts.forEach((count, row) => {
    if (count > 0 && (best < 0 || count > counts[best]! || (count === counts[best]! && fromServer[row]! > fromServer[best]!))) best = row;
  });
  return best < 0 ? OTHER.name : CATEGORIES[best]!.name;
}

export function categoryDescription(name: string): string {
  return CATEGORIES.find((c) => c.name === name)?.description ?? OTHER.description;
}

export const CATEGORY_NAMES: readonly string[] = [...CATEGORIES.map((c) => c.name), OTHER.name];
