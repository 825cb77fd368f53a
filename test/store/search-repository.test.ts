// The search tables of the store: vectors round-trip bit-exactly by (model, content hash), and learned
// queries add up on repeats, fade with their half-life (injected clock), are capped per tool and
// deleted once faded under the floor.
import { afterEach, describe, expect, it } from 'vitest';
import { StoreError } from '../../src/store/index.js';
import { tempStores } from './helpers.js';

const stores = tempStores();
afterEach(() => stores.cleanup());
const DAY = 86_400_000;

describe('vector repository', () => {
  it('stores float32 vectors per model and content hash and reads them back exactly', () => {
    const store = stores.open();
    const a = Float32Array.from([0.1, -2.5, 3e-8, 1e20]);
    store.vectors.put('m1', [{ hash: 'h1', vector: a }, { hash: 'h2', vector: Float32Array.from([1, 2]) }]);
    store.vectors.put('m2', [{ hash: 'h1', vector: Float32Array.from([9]) }]);
    const got = store.vectors.get('m1', ['h1', 'h3']);
    expect([...got.keys()]).toEqual(['h1']);
    expect([...got.get('h1')!]).toEqual([...a]);
    expect([...store.vectors.get('m2', ['h1']).get('h1')!]).toEqual([9]);
    expect(store.vectors.count()).toBe(3);
    expect(store.vectors.count('m1')).toBe(2);
    store.vectors.put('m1', [{ hash: 'h1', vector: Float32Array.from([7, 7, 7]) }]);
    expect([...store.vectors.get('m1', ['h1']).get('h1')!]).toEqual([7, 7, 7]);
    // More hashes than one statement may bind.
    const many = Array.from({ length: 1200 }, (_, i) => ({ hash: `x${i}`, vector: Float32Array.from([i]) }));
    store.vectors.put('big', many);
    expect(store.vectors.get('big', many.map((m) => m.hash)).size).toBe(1200);
  });
});

describe('learned query repository', () => {
  it('adds weights on repeats, fades them with the half-life and drops what faded away', () => {
    let now = 1_000 * DAY;
    const store = stores.open({ clock: () => now, search: { halfLifeDays: 10 } });
    const q = store.learnedQueries;
    expect(q.add('gh', 'create_issue', 'file a bug', 1)).toBe(1);
    expect(q.add('gh', 'create_issue', 'file a bug', 1)).toBe(2);
    q.add('gh', 'create_issue', 'open ticket', 0.5);
    now += 10 * DAY; // one half-life
    expect(q.of('gh', 'create_issue').map((r) => [r.query, r.weight])).toEqual([['file a bug', 1], ['open ticket', 0.25]]);
    expect(q.add('gh', 'create_issue', 'file a bug', 1)).toBe(2); // 2 faded to 1, plus 1
    now += 40 * DAY; // open ticket: 0.25 / 16 < 0.05 -> gone; file a bug: 2 / 16 = 0.125
    const all = q.all();
    expect(all.map((r) => [r.server, r.tool, r.query])).toEqual([['gh', 'create_issue', 'file a bug']]);
    expect(all[0]!.weight).toBeCloseTo(0.125);
    expect(store.db.prepare('SELECT COUNT(*) AS n FROM search_queries').get()).toEqual({ n: 1 });
  });

  it('keeps at most the cap per tool, dropping the lightest, and clears by server or tool', () => {
    const store = stores.open();
    for (let i = 0; i < 103; i++) store.learnedQueries.add('fs', 'read', `query ${i}`, 1 + i / 1000);
    store.learnedQueries.add('fs', 'write', 'save text', 1);
    store.learnedQueries.add('gh', 'read', 'read a file from github', 1);
    const read = store.learnedQueries.of('fs', 'read');
    expect(read).toHaveLength(100);
    expect(read.map((r) => r.query)).not.toContain('query 0');
    expect(read[0]!.query).toBe('query 102');
    // Full of heavier queries, a new one still gets in (the lightest other one makes room).
    expect(store.learnedQueries.add('fs', 'read', 'fresh query', 0.5)).toBe(0.5);
    const after = store.learnedQueries.of('fs', 'read');
    expect(after).toHaveLength(100);
    expect(after.map((r) => r.query)).toContain('fresh query');
    expect(store.learnedQueries.clear({ tool: 'read' })).toBe(101);
    expect(store.learnedQueries.clear({ server: 'fs' })).toBe(1);
    expect(store.learnedQueries.all()).toEqual([]);
  });

  it('refuses empty queries and bad weights with a StoreError', () => {
    const store = stores.open();
    expect(() => store.learnedQueries.add('fs', 'read', '  ', 1)).toThrow(StoreError);
    expect(() => store.learnedQueries.add('fs', 'read', 'x', 0)).toThrow(/positive number/);
    expect(() => store.learnedQueries.add('fs', 'read', 'x', Number.NaN)).toThrow(StoreError);
  });
});
