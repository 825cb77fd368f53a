// Ranking sanity on the fixture servers' real tool lists, typo/synonym/prefix matching, incremental
// updates and learned queries.
import { describe, expect, it } from 'vitest';
import { ToolIndex } from '../../src/search/index.js';
import { hashUnit } from '../../src/search/bench.js';
import { FIXTURE_DIR, fixtureTools } from './fixtures.js';

const tools = fixtureTools();

function fixtureIndex(): ToolIndex {
  const index = new ToolIndex();
  for (const t of tools!) index.add(t);
  return index;
}
const top = (index: ToolIndex, q: string, limit = 5) => index.search(q, { limit }).map((h) => h.key);

describe(`ranking on the fixture servers (${FIXTURE_DIR})`, () => {
  const index = tools ? fixtureIndex() : new ToolIndex();

  it('finds github_create_issue first for "create an issue"', () => {
    expect(top(index, 'create an issue')[0]).toBe('github_create_issue');
  });

  it('survives typos', () => {
    expect(top(index, 'crate issue')[0]).toBe('github_create_issue');
    expect(top(index, 'serach repositories')[0]).toBe('github_search_repositories');
    expect(top(index, 'delte entities')[0]).toBe('memory_delete_entities');
  });

  it('expands CLI verbs through synonyms', () => {
    const removeFile = index.search('remove file', { limit: 3 });
    expect(removeFile.length).toBeGreaterThan(0);
    for (const hit of removeFile) expect(hit.name).toMatch(/delete/);
    expect(top(index, 'rm key')[0]).toBe('redis_delete');
    expect(top(index, 'remove observations')[0]).toBe('memory_delete_observations');
    expect(top(index, 'ls directory')[0]).toBe('filesystem_list_directory');
  });

  it('completes prefixes and splits names', () => {
    expect(top(index, 'screensh')[0]).toBe('puppeteer_puppeteer_screenshot');
    expect(top(index, 'github_create_iss')[0]).toBe('github_create_issue');
    expect(top(index, 'sequential thinking')[0]).toBe('sequential-thinking_sequentialthinking');
  });

  it('filters by server', () => {
    const hits = index.search('create an issue', { server: 'gitlab' });
    expect(hits[0]!.key).toBe('gitlab_create_issue');
    expect(hits.every((h) => h.server === 'gitlab')).toBe(true);
  });
});

describe('incremental index', () => {
  const doc = (key: string, description: string) => ({ key, server: 'demo', name: key.replace('demo_', ''), description });

  it('adds, updates and removes one tool at a time', () => {
    const index = new ToolIndex();
    index.add(doc('demo_alpha', 'Convert currencies at the daily rate'));
    index.add(doc('demo_beta', 'Look up the weather forecast for a city'));
    expect(top(index, 'currency exchange')[0]).toBe('demo_alpha');

    index.update(doc('demo_alpha', 'Translate text between languages'));
    expect(top(index, 'currency')).toEqual([]);
    expect(top(index, 'translate text')[0]).toBe('demo_alpha');
    expect(index.size).toBe(2);

    expect(index.remove('demo_alpha')).toBe(true);
    expect(index.remove('demo_alpha')).toBe(false);
    expect(top(index, 'translate text')).toEqual([]);
    expect(top(index, 'weather')[0]).toBe('demo_beta');
    index.add(doc('demo_gamma', 'Weather radar images'));
    expect(new Set(top(index, 'weather'))).toEqual(new Set(['demo_beta', 'demo_gamma']));
  });

  it('learns from use: a query attached to a tool finds it later, capped per tool', () => {
    const index = new ToolIndex({ expansionCap: 3 });
    index.add(doc('demo_alpha', 'Convert currencies at the daily rate'));
    index.add(doc('demo_beta', 'Look up the weather forecast for a city'));
    expect(top(index, 'should I take an umbrella')).toEqual([]);
    expect(index.addExpansion('demo_beta', 'should I take an umbrella tomorrow')).toBe(true);
    expect(top(index, 'umbrella')[0]).toBe('demo_beta');
    expect(index.addExpansion('missing', 'anything')).toBe(false);
    for (const q of ['rain jacket', 'sunscreen', 'snow boots', 'umbrella please']) index.addExpansion('demo_beta', q);
    expect(index.expansionsOf('demo_beta').length).toBe(3);
    index.update(doc('demo_beta', 'Look up the weather forecast for a city')); // learned queries survive updates
    expect(top(index, 'umbrella')[0]).toBe('demo_beta');
  });

  it('splits the benchmark deterministically', () => {
    expect(hashUnit('metatool-single-1')).toBe(hashUnit('metatool-single-1'));
    expect(hashUnit('a')).toBeGreaterThanOrEqual(0);
    expect(hashUnit('a')).toBeLessThan(1);
  });
});
