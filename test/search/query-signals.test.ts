// Query-side signals learned from the catalog itself, each on a small hand-made catalog where it
// must change the order or the scores: keyword extraction by document frequency (filler words most
// tools share are scaled down), contractions (`msg` for `message`) and numeronyms (`k8s`).
import { describe, expect, it } from 'vitest';
import { numeronymOf, numeronymsIn } from '../../src/search/abbreviations.js';
import { mergeIndexOptions } from '../../src/search/cross.js';
import { ToolIndex, type IndexOptions, type SearchHit, type ToolDoc } from '../../src/search/index.js';
import { joinedNameParts } from '../../src/search/joined-words.js';
import { extractKeywords } from '../../src/search/keywords.js';

const tool = (server: string, name: string, description: string): ToolDoc => ({ key: `${server}_${name}`, server, name, description });

function search(docs: ToolDoc[], query: string, options: Partial<IndexOptions> = {}): SearchHit[] {
  const index = new ToolIndex(mergeIndexOptions(options));
  for (const d of docs) index.add(d);
  return index.search(query, { limit: 10 });
}
const keys = (hits: SearchHit[]) => hits.map((h) => h.key);

describe('keyword extraction by the catalog document frequency', () => {
  const docs = [
    tool('files', 'read_file', 'Read a file and return its text.'),
    tool('files', 'write_file', 'Write text to a file.'),
    tool('files', 'list_files', 'List the files of a folder.'),
    tool('files', 'file_info', 'Size and dates of a file.'),
    tool('docs', 'file_report', 'Report on a file.'),
    tool('docs', 'make_chart', 'Draws a chart for a report.'),
  ];
  const on = { keywords: { relativeIdf: 0.5 } } as Partial<IndexOptions>;

  it('a word most tools share is scaled down against the request\'s most specific word', () => {
    const words = [
      { word: 'file', alternatives: new Map([['file', 1]]) },
      { word: 'chart', alternatives: new Map([['chart', 1]]) },
      { word: 'report', alternatives: new Map([['report', 1]]) },
    ];
    const df = (t: string) => ({ file: 5, chart: 1, report: 2 })[t] ?? 0;
    const out = extractKeywords(words, df, 6, { relativeIdf: 0.5, sharpness: 1, minWords: 3 });
    expect(out[1]).toBe(words[1]); // the most specific word is untouched
    expect(out[0]!.alternatives.get('file')).toBeLessThan(0.5);
    expect(out[0]!.alternatives.get('file')).toBeGreaterThan(0);
    // Off, or too few known words: the request is all keywords.
    expect(extractKeywords(words, df, 6, { relativeIdf: 0, sharpness: 1, minWords: 3 })).toBe(words);
    const two = words.slice(0, 2);
    expect(extractKeywords(two, df, 6, { relativeIdf: 0.5, sharpness: 1, minWords: 3 })).toBe(two);
  });

  it('tools matching only the filler word fall further behind the tool matching the keywords', () => {
    const query = 'report and chart for a file';
    const share = (hits: SearchHit[]) => hits.find((h) => h.key === 'files_read_file')!.score / hits[0]!.score;
    const plain = search(docs, query);
    const reduced = search(docs, query, on);
    expect(plain[0]!.key).toBe('docs_make_chart');
    expect(reduced[0]!.key).toBe('docs_make_chart');
    expect(share(reduced)).toBeLessThan(share(plain) * 0.5);
  });
});

describe('contractions learned from the catalog', () => {
  const docs = [
    tool('shop', 'order', 'Order items; qty is the quantity of each.'), // teaches qty <-> quantity
    tool('shop', 'set_qty', 'Sets the qty of a cart line.'),
    tool('shop', 'list_cart', 'Lists every cart line.'),
  ];
  const on = { query: { abbreviationWeight: 0.5, abbreviationContractions: true } } as Partial<IndexOptions>;

  it("a request for 'quantity' also finds the tool that only says 'qty', once a tool used both", () => {
    expect(keys(search(docs, 'cart line quantity'))[0]).toBe('shop_list_cart');
    expect(keys(search(docs, 'cart line quantity', on))[0]).toBe('shop_set_qty');
  });

  it('prefix abbreviations alone do not pair a contraction', () => {
    expect(keys(search(docs, 'cart line quantity', { query: { abbreviationWeight: 0.5 } } as Partial<IndexOptions>))[0]).toBe('shop_list_cart');
  });
});

describe('numeronyms of the catalog words', () => {
  it('numeronymOf / numeronymsIn: first letter, letters between, last letter; short gaps are not numeronyms', () => {
    expect(numeronymOf('kubernetes')).toBe('k8s');
    expect(numeronymOf('accessibility')).toBe('a11y');
    expect(numeronymOf('bomb')).toBeUndefined();
    expect(numeronymsIn('Deploy to K8s, check a11y; b2b and p2p and mp3 are not')).toEqual(['k8s', 'a11y']);
  });

  const docs = [
    tool('docker', 'list_containers', 'List running containers.'),
    tool('cluster', 'list_pods', 'List the pods of a Kubernetes cluster.'),
  ];

  it("'k8s' in a request reaches the catalog's 'kubernetes'", () => {
    expect(keys(search(docs, 'list k8s workloads'))[0]).toBe('docker_list_containers'); // a tie: catalog order
    expect(keys(search(docs, 'list k8s workloads', { query: { numeronymWeight: 0.8 } } as Partial<IndexOptions>))[0]).toBe('cluster_list_pods');
  });

  it('a numeronym learned from a tool goes when the tool goes', () => {
    const index = new ToolIndex(mergeIndexOptions({ query: { numeronymWeight: 0.8 } } as Partial<IndexOptions>));
    for (const d of docs) index.add(d);
    index.add(tool('other', 'kubernetes_info', 'About kubernetes.'));
    expect(index.search('k8s', { limit: 5 }).map((h) => h.key)).toEqual(['other_kubernetes_info', 'cluster_list_pods']);
    index.remove('cluster_list_pods');
    index.remove('other_kubernetes_info');
    expect(index.search('k8s', { limit: 5 })).toEqual([]);
  });
});

describe('names written as one run, split by the tool\'s own words', () => {
  it('joinedNameParts: the parts the tool\'s own text uses, none for a run that is a word or mostly unknown', () => {
    expect(joinedNameParts('airqualityforecast', 'Get the air quality forecast for a zip code.')).toEqual(['air', 'quality', 'forecast']);
    expect(joinedNameParts('exportchat', 'Export the chat as a file.')).toEqual(['export', 'chat']);
    expect(joinedNameParts('calculator', 'A calculator.')).toEqual([]);
    expect(joinedNameParts('zyxwvutab', 'Tab completion.')).toEqual([]);
  });

  it('a request in plain words reaches a joined name when the option is on', () => {
    const docs = [
      tool('a', 'chat_export', 'Saves conversations.'),
      tool('b', 'exportchat', 'Export the chat log; chat history export.'),
    ];
    const splitOn = { splitJoinedNames: true } as Partial<IndexOptions>;
    const score = (hits: SearchHit[], key: string) => hits.find((h) => h.key === key)?.score ?? 0;
    const plain = search(docs, 'export chat');
    const split = search(docs, 'export chat', splitOn);
    const ratio = (hits: SearchHit[]) => score(hits, 'b_exportchat') / score(hits, 'a_chat_export');
    expect(ratio(split)).toBeGreaterThan(ratio(plain) * 1.2);
  });
});
