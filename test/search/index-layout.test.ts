// The flat posting layout: removals and updates (swap-removal with back-pointers, reused slots)
// leave exactly the ranking of an index built fresh; server and filter restrictions rank exactly
// like the unrestricted search filtered afterwards; bulk loads and one-at-a-time adds score alike.
import { describe, expect, it } from 'vitest';
import { ToolIndex, type SearchHit, type ToolDoc } from '../../src/search/index.js';
import { fixtureTools } from './fixtures.js';

const tools = fixtureTools();

const QUERIES = [
  'create an issue',
  'read a file',
  'search repositories on github',
  'take a screenshot of the page',
  'delete key from cache',
  'list directory contents',
  'send a message to a channel',
  'query the database',
  'find places nearby',
  'remember an observation about a person',
];

const round = (hits: SearchHit[]) => hits.map((h) => `${h.key} ${h.score.toFixed(9)}`);

function build(docs: readonly ToolDoc[]): ToolIndex {
  const index = new ToolIndex();
  for (const d of docs) index.add(d);
  return index;
}

describe('posting layout on the fixture servers', () => {
  const all = tools ?? [];

  it('removing and re-adding tools restores the exact ranking', () => {
    const fresh = build(all);
    const churned = build(all);
    churned.search('warm up');
    // Remove every third tool (moves other postings into the freed positions), then add them back.
    const removed = all.filter((_, i) => i % 3 === 0);
    for (const d of removed) expect(churned.remove(d.key)).toBe(true);
    churned.search('anything'); // searches in between must not break the layout
    for (const d of removed) churned.add(d);
    for (const q of QUERIES) {
      // Re-added tools come later in catalog order, so compare score lists, not tie order.
      expect(round(churned.search(q, { limit: 20 })).sort()).toEqual(round(fresh.search(q, { limit: 20 })).sort());
    }
  });

  it('updating a tool and updating it back restores the exact ranking', () => {
    const fresh = build(all);
    const index = build(all);
    for (const d of all.slice(0, 40)) index.update({ ...d, description: `${d.description ?? ''} changed wording here` });
    index.search('between');
    for (const d of all.slice(0, 40)) index.update(d);
    for (const q of QUERIES) expect(round(index.search(q, { limit: 20 }))).toEqual(round(fresh.search(q, { limit: 20 })));
  });

  it('a server or filter restriction ranks like the full search filtered afterwards', () => {
    const index = build(all);
    const servers = [...new Set(all.map((d) => d.server))];
    for (const q of QUERIES) {
      const full = index.search(q, { limit: all.length });
      for (const server of servers.slice(0, 6)) {
        const restricted = index.search(q, { limit: 5, server });
        expect(round(restricted)).toEqual(round(full.filter((h) => h.server === server).slice(0, 5)));
      }
      const even = new Set(all.filter((_, i) => i % 2 === 0).map((d) => d.key));
      // Filtered: only accepted tools, and a short list is the head of a long one.
      const filtered = index.search(q, { limit: 8, filter: (d) => even.has(d.key) });
      expect(filtered.every((h) => even.has(h.key))).toBe(true);
      expect(filtered.map((h) => h.key)).toEqual(
        index
          .search(q, { limit: all.length, filter: (d) => even.has(d.key) })
          .slice(0, 8)
          .map((h) => h.key),
      );
    }
    expect(index.search('create an issue', { server: 'no-such-server' })).toEqual([]);
  });

  it('a bulk load and one-at-a-time adds with searches in between score alike', () => {
    const bulk = build(all);
    const stepwise = new ToolIndex();
    all.forEach((d, i) => {
      stepwise.add(d);
      if (i % 7 === 0) stepwise.search('create');
    });
    for (const q of QUERIES) {
      const a = bulk.search(q, { limit: 10 });
      const b = stepwise.search(q, { limit: 10 });
      expect(b.map((h) => h.key)).toEqual(a.map((h) => h.key));
      // Weights use an average-length snapshot refreshed on 2% drift, so scores agree closely.
      b.forEach((h, i) => expect(h.score).toBeCloseTo(a[i]!.score, 1));
    }
  });

  it('phrases (optional): adjacent query words adjacent in a tool score extra', () => {
    const docs: ToolDoc[] = [
      { key: 'a_apart', server: 'a', name: 'render', description: 'Render a cloud of any word list as an image' },
      { key: 'b_phrase', server: 'b', name: 'render', description: 'Render a word cloud image from a list' },
    ];
    const plain = new ToolIndex();
    const phrased = new ToolIndex({ phraseWeight: 1 });
    for (const d of docs) {
      plain.add(d);
      phrased.add(d);
    }
    const gap = (index: ToolIndex) => {
      const hits = index.search('word cloud');
      return hits.find((h) => h.key === 'b_phrase')!.score - hits.find((h) => h.key === 'a_apart')!.score;
    };
    expect(gap(phrased)).toBeGreaterThan(gap(plain) + 0.1);
    expect(phrased.search('word clou')[0]).toBeDefined(); // phrases never reach typo or prefix matching
  });

  it('reused slots do not inherit another tool\'s server or filter verdict', () => {
    const index = build(all);
    const victim = all.find((d) => d.server === 'github')!;
    const filter = (d: ToolDoc) => d.server !== 'gitlab';
    index.search('create an issue', { filter });
    index.remove(victim.key);
    const moved: ToolDoc = { ...victim, key: 'gitlab_create_issue_copy', server: 'gitlab' };
    index.add(moved); // takes the freed slot
    const hits = index.search('create an issue', { limit: 50, filter });
    expect(hits.some((h) => h.key === moved.key)).toBe(false);
    expect(index.search('create an issue', { limit: 50, server: 'gitlab' }).some((h) => h.key === moved.key)).toBe(true);
  });
});

describe('name coverage', () => {
  const all = tools ?? [];

  it('scores only the tools that can still reach the top k, with the same top k as scoring all', () => {
    const index = build(all);
    for (const q of [...QUERIES, 'get file info', 'list allowed directories', 'screenshot', 'create or update file in repository']) {
      const everything = index.search(q, { limit: all.length }); // every candidate gets its factor
      for (const k of [1, 3, 5, 10]) expect(round(index.search(q, { limit: k }))).toEqual(round(everything.slice(0, k)));
    }
  });

  it('ranks a tool whose whole name the request covers above one that shares a single word', () => {
    const docs: ToolDoc[] = [
      { key: 'chart_generate_dual_axes_chart', server: 'chart', name: 'generate_dual_axes_chart', description: 'Generate a dual axes chart: a bar chart and a line chart of sales data' },
      { key: 'chart_generate_bar_chart', server: 'chart', name: 'generate_bar_chart', description: 'Generate a bar chart' },
    ];
    const covered = new ToolIndex();
    const plain = new ToolIndex({ nameCoverage: 0 });
    for (const d of docs) {
      covered.add(d);
      plain.add(d);
    }
    const gap = (index: ToolIndex) => {
      const hits = index.search('plot the sales data as a bar chart');
      return hits.find((h) => h.key.endsWith('_bar_chart'))!.score - hits.find((h) => h.key.endsWith('dual_axes_chart'))!.score;
    };
    expect(gap(covered)).toBeGreaterThan(gap(plain));
    expect(covered.search('generate a bar chart')[0]!.key).toBe('chart_generate_bar_chart');
  });
});
