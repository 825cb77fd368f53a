// Each ranking signal on a small hand-made catalog where it must change the order: the server
// description as its own field, parameter names and enum values as fields, the per-server cap (and
// its exceptions: a request naming the server, a one-server catalog), and the bench's option merge
// that switches one signal alone.
import { describe, expect, it } from 'vitest';
import { ToolIndex, type IndexOptions, type ToolDoc } from '../../src/search/index.js';
import { mergeIndexOptions } from '../../src/search/cross.js';

const tool = (server: string, name: string, description: string, extra: Partial<ToolDoc> = {}): ToolDoc => ({ key: `${server}_${name}`, server, name, description, ...extra });

function rank(docs: ToolDoc[], query: string, options: Partial<IndexOptions> = {}, limit = 10): string[] {
  const index = new ToolIndex(mergeIndexOptions(options));
  for (const d of docs) index.add(d);
  return index.search(query, { limit }).map((h) => h.key);
}

describe('ranking signals, one at a time', () => {
  it('the server description is a field of its own: it lifts the tools of the server it describes', () => {
    const docs = [
      tool('alpha', 'get_data', 'Returns data for a key.', { serverDescription: 'Stock prices and market quotes' }),
      tool('beta', 'get_data', 'Returns data for a key.', { serverDescription: 'Weather forecasts for any city' }),
    ];
    expect(rank(docs, 'weather data')[0]).toBe('beta_get_data');
    // Switched off, the two tools tie and keep catalog order.
    expect(rank(docs, 'weather data', { weights: { serverInfo: 0 } } as Partial<IndexOptions>)).toEqual(['alpha_get_data', 'beta_get_data']);
  });

  it('parameter names and enum values are fields: a tool whose schema speaks of the request rises', () => {
    const docs = [
      tool('a', 'convert', 'Converts a value.'),
      tool('b', 'convert', 'Converts a value.', { inputSchema: { type: 'object', properties: { unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } } } }),
      tool('c', 'convert', 'Converts a value.', { inputSchema: { type: 'object', properties: { currency: { type: 'string', description: 'ISO currency code' } } } }),
    ];
    expect(rank(docs, 'convert fahrenheit')[0]).toBe('b_convert');
    expect(rank(docs, 'convert currency')[0]).toBe('c_convert');
    expect(rank(docs, 'convert fahrenheit', { weights: { enums: 0 } } as Partial<IndexOptions>)[0]).toBe('a_convert');
    expect(rank(docs, 'convert currency', { weights: { params: 0 } } as Partial<IndexOptions>)[0]).toBe('a_convert');
  });
});

describe('abbreviations learned from the catalog', () => {
  const docs = [
    tool('id', 'login', 'Starts authentication (auth) for a user.'),
    tool('id', 'refresh_auth', 'Refreshes the auth token.'),
    tool('web', 'leaderboard', 'Shows the leader of each board.'),
    tool('web', 'board_games', 'Lists board games.'),
  ];

  it("a request for 'authentication' also finds a tool that only says 'auth', once a tool used both", () => {
    const on = { query: { abbreviationWeight: 0.5 } } as Partial<IndexOptions>;
    expect(rank(docs, 'authentication')).toEqual(['id_login']);
    expect(rank(docs, 'authentication', on)).toEqual(['id_login', 'id_refresh_auth']);
    expect(rank(docs, 'authentication token', on)[0]).toBe('id_refresh_auth'); // it alone also says "token"
  });

  it('compounds are not abbreviations: "leader" does not stand for "leaderboard" when "board" is a catalog word', () => {
    const plain = rank(docs, 'leader', { query: { abbreviationWeight: 0.5 } } as Partial<IndexOptions>);
    expect(plain).toEqual(['web_leaderboard']); // found by its description's own word, nothing added
  });
});

describe('at most N results per server in the top k', () => {
  // One server with many near-duplicates of the request, two others with one weaker match each.
  const docs = [
    ...['upload_file', 'upload_files', 'upload_file_chunk', 'upload_file_async', 'upload_file_url'].map((n) => tool('crowd', n, 'Upload a file to storage. Upload file upload.')),
    tool('drive', 'put_object', 'Upload a file to the drive.'),
    tool('share', 'send_file', 'Send a file to someone (upload).'),
  ];
  const servers = (keys: string[]) => keys.map((k) => k.split('_')[0]);

  it('without the cap one server fills the top 5', () => {
    expect(servers(rank(docs, 'upload a file', {}, 5))).toEqual(['crowd', 'crowd', 'crowd', 'crowd', 'crowd']);
  });

  it('with maxPerServer 2 the other servers enter the top k and the capped tools follow, not dropped', () => {
    const capped = rank(docs, 'upload a file', { maxPerServer: 2 }, 7);
    expect(servers(capped.slice(0, 4)).filter((s) => s === 'crowd')).toHaveLength(2);
    expect(capped.slice(0, 4)).toEqual(expect.arrayContaining(['drive_put_object', 'share_send_file']));
    expect(capped).toHaveLength(7);
    expect(new Set(capped).size).toBe(7);
  });

  it('a request that names the server is not capped for that server', () => {
    expect(servers(rank(docs, 'crowd upload a file', { maxPerServer: 2 }, 5))).toEqual(['crowd', 'crowd', 'crowd', 'crowd', 'crowd']);
  });

  it('a one-server catalog is never capped', () => {
    const one = docs.filter((d) => d.server === 'crowd');
    expect(rank(one, 'upload a file', { maxPerServer: 1 }, 5)).toHaveLength(5);
  });
});

describe('mergeIndexOptions', () => {
  it('merges nested weights over the defaults so one field can be switched alone', () => {
    const merged = mergeIndexOptions({ weights: { enums: 0 } } as Partial<IndexOptions>);
    expect(merged.weights.enums).toBe(0);
    expect(merged.weights.name).toBe(3);
    expect(merged.query.synonyms).toBe(true);
  });
});
