import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { contentHash, StoreError, type Store } from '../../src/store/index.js';
import { manualClock, tempStores, thrown } from './helpers.js';

const stores = tempStores();
const clock = manualClock(Date.UTC(2025, 0, 1, 12));
let store: Store;
beforeEach(() => {
  clock.set(Date.UTC(2025, 0, 1, 12));
  store = stores.open({ clock: clock.now });
});
afterEach(() => stores.cleanup());

const schema = (props: Record<string, unknown>) => ({ type: 'object', properties: props });
const readFile = { name: 'read_file', description: 'Read a file', inputSchema: schema({ path: { type: 'string' } }) };
const writeFile = { name: 'write_file', description: 'Write a file', inputSchema: schema({ path: { type: 'string' }, content: { type: 'string' } }) };
const listDir = { name: 'list_dir', description: 'List a folder', inputSchema: schema({ path: { type: 'string' } }) };
const stat = { name: 'stat', description: 'File info', inputSchema: schema({ path: { type: 'string' } }), annotations: { readOnlyHint: true } };

describe('CatalogRepository change tracking', () => {
  it('reports a first listing as all added, with one audit row each', () => {
    const summary = store.catalog.saveListing('fs', 'tools', [readFile, writeFile, listDir]);
    expect(summary).toEqual({ added: ['read_file', 'write_file', 'list_dir'], updated: [], removed: [], unchanged: 0 });
    expect(store.catalog.changes().map((c) => [c.name, c.change, c.oldHash, c.newHash])).toEqual([
      ['list_dir', 'added', null, contentHash('tools', listDir)],
      ['write_file', 'added', null, contentHash('tools', writeFile)],
      ['read_file', 'added', null, contentHash('tools', readFile)],
    ]);
    expect(store.catalog.listedAt('fs')).toBe(clock.now());
  });

  it('finds exactly the added, updated and removed tools and writes their audit rows', () => {
    const t0 = clock.now();
    store.catalog.saveListing('fs', 'tools', [readFile, writeFile, listDir, stat]);
    clock.set(t0 + 60_000);
    const changedRead = { ...readFile, description: 'Read a UTF-8 file', inputSchema: schema({ path: { type: 'string', minLength: 1 } }) };
    const move = { name: 'move', description: 'Move a file', inputSchema: schema({ from: { type: 'string' }, to: { type: 'string' } }) };
    // Same content with keys in another order and a changed title (not hashed): unchanged.
    const statReordered = { annotations: { readOnlyHint: true }, title: 'Stat', inputSchema: stat.inputSchema, description: stat.description, name: 'stat' };

    const summary = store.catalog.saveListing('fs', 'tools', [changedRead, writeFile, statReordered, move]);
    expect(summary).toEqual({ added: ['move'], updated: ['read_file'], removed: ['list_dir'], unchanged: 2 });

    const latest = store.catalog.changes({ since: t0 + 60_000 });
    expect(latest.map(({ id: _id, ...rest }) => rest)).toEqual([
      { server: 'fs', kind: 'tools', name: 'list_dir', change: 'removed', oldHash: contentHash('tools', listDir), newHash: null, at: t0 + 60_000, diffSummary: [] },
      { server: 'fs', kind: 'tools', name: 'move', change: 'added', oldHash: null, newHash: contentHash('tools', move), at: t0 + 60_000, diffSummary: [] },
      {
        server: 'fs',
        kind: 'tools',
        name: 'read_file',
        change: 'updated',
        oldHash: contentHash('tools', readFile),
        newHash: contentHash('tools', changedRead),
        at: t0 + 60_000,
        diffSummary: ['description', 'inputSchema.properties.path'],
      },
    ]);
    // The raw table holds the documented columns, diff_summary as JSON text.
    const row = store.db.prepare("SELECT diff_summary FROM catalog_changes WHERE name = 'read_file' AND change = 'updated'").get();
    expect(row).toEqual({ diff_summary: '["description","inputSchema.properties.path"]' });

    expect(store.catalog.loadListing('fs', 'tools')).toEqual([changedRead, writeFile, statReordered, move]);
    expect(store.catalog.entryHashes('fs', 'tools').get('stat')).toBe(contentHash('tools', stat));
    expect(store.catalog.changes()).toHaveLength(7);
  });

  it('saving the same listing again changes nothing but the listing time', () => {
    store.catalog.saveListing('fs', 'tools', [readFile, writeFile]);
    clock.set(clock.now() + 1000);
    expect(store.catalog.saveListing('fs', 'tools', [writeFile, readFile])).toEqual({ added: [], updated: [], removed: [], unchanged: 2 });
    expect(store.catalog.changes()).toHaveLength(2);
    expect(store.catalog.listedAt('fs', 'tools')).toBe(clock.now());
  });

  it('keeps kinds and servers apart and keys resources by uri', () => {
    store.catalog.saveListing('fs', 'tools', [readFile]);
    store.catalog.saveListing('fs', 'resources', [{ uri: 'file:///a', name: 'a' }]);
    store.catalog.saveListing('mem', 'tools', [readFile]);
    const summary = store.catalog.saveListing('fs', 'resources', [{ uri: 'file:///a', name: 'A' }, { uri: 'file:///b', name: 'b' }]);
    expect(summary).toEqual({ added: ['file:///b'], updated: ['file:///a'], removed: [], unchanged: 0 });
    expect(store.catalog.changes({ server: 'fs' }).filter((c) => c.kind === 'resources')[1].diffSummary).toEqual(['name']);
    expect(store.catalog.loadListing('mem', 'tools')).toEqual([readFile]);
    expect(store.catalog.loadListing('mem', 'prompts')).toBeUndefined();
    expect(store.catalog.servers()).toEqual(['fs', 'mem']);
  });

  it('returns audit rows newest first, filtered and limited', () => {
    store.catalog.saveListing('a', 'tools', [readFile]);
    clock.set(clock.now() + 10);
    store.catalog.saveListing('b', 'tools', [readFile]);
    clock.set(clock.now() + 10);
    store.catalog.saveListing('a', 'tools', []);
    expect(store.catalog.changes().map((c) => `${c.server}:${c.change}`)).toEqual(['a:removed', 'b:added', 'a:added']);
    expect(store.catalog.changes({ server: 'a', limit: 1 }).map((c) => c.change)).toEqual(['removed']);
    expect(store.catalog.changes({ since: clock.now() - 10 }).map((c) => c.server)).toEqual(['a', 'b']);
    expect(() => store.catalog.changes({ limit: 0 })).toThrow(/limit must be a positive integer/);
  });

  it('forgetServer drops the snapshot but keeps the audit log', () => {
    store.catalog.saveListing('fs', 'tools', [readFile]);
    store.catalog.saveListing('fs', 'prompts', [{ name: 'p' }]);
    store.catalog.forgetServer('fs');
    expect(store.catalog.loadListing('fs', 'tools')).toBeUndefined();
    expect(store.catalog.listedAt('fs')).toBeUndefined();
    expect(store.catalog.entryHashes('fs', 'tools').size).toBe(0);
    expect(store.catalog.changes()).toHaveLength(2);
    expect(store.catalog.saveListing('fs', 'tools', [readFile]).added).toEqual(['read_file']);
  });

  it('tracks the first of duplicate names and still stores the listing verbatim', () => {
    const dup = { ...readFile, description: 'second copy' };
    const summary = store.catalog.saveListing('fs', 'tools', [readFile, dup]);
    expect(summary.added).toEqual(['read_file']);
    expect(store.catalog.entryHashes('fs', 'tools').get('read_file')).toBe(contentHash('tools', readFile));
    expect(store.catalog.loadListing('fs', 'tools')).toEqual([readFile, dup]);
  });

  it('rejects bad input with a StoreError and writes nothing', () => {
    store.catalog.saveListing('fs', 'tools', [readFile]);
    const err = thrown(() => store.catalog.saveListing('fs', 'tools', [writeFile, { description: 'no name' }]));
    expect(err).toBeInstanceOf(StoreError);
    expect((err as StoreError).message).toBe(
      'saveListing("fs", "tools"): entry 1: a tools entry needs a non-empty string "name", got undefined; pass the entries exactly as the server listed them',
    );
    expect(() => store.catalog.saveListing('', 'tools', [])).toThrow(/server must be a non-empty string/);
    expect(() => store.catalog.saveListing('fs', 'widgets' as never, [])).toThrow(/kind must be one of tools, prompts, resources, resourceTemplates/);
    expect(store.catalog.loadListing('fs', 'tools')).toEqual([readFile]);
    expect(store.catalog.changes()).toHaveLength(1);
  });

  it('writes the snapshot and the audit rows in one transaction: a failure keeps neither', () => {
    store.catalog.saveListing('fs', 'tools', [readFile]);
    store.db.exec(`CREATE TRIGGER fail_on_boom BEFORE INSERT ON catalog_changes WHEN NEW.name = 'boom'
                   BEGIN SELECT RAISE(ABORT, 'simulated disk error'); END`);
    clock.set(clock.now() + 1000);
    expect(() => store.catalog.saveListing('fs', 'tools', [writeFile, { name: 'boom' }])).toThrow(/simulated disk error/);
    expect(store.catalog.loadListing('fs', 'tools')).toEqual([readFile]);
    expect([...store.catalog.entryHashes('fs', 'tools').keys()]).toEqual(['read_file']);
    expect(store.catalog.changes()).toHaveLength(1);
    expect(store.catalog.listedAt('fs')).toBe(clock.now() - 1000);
  });
});
