// The gateway's search services in-process with a real store: learning from use links a session's
// search to its own later successful call of a tool that search showed (once per search, within ten
// minutes, stored and applied to live engines), and success-rate priors nudge without hiding.
import { afterEach, describe, expect, it } from 'vitest';
import { ToolSearch } from '../../src/gateway/tool-search.js';
import { CallRecorder } from '../../src/metrics/call-recorder.js';
import { moduleLogger } from '../../src/logging/logger.js';
import type { ToolDoc } from '../../src/search/document.js';
import { tempStores } from '../store/helpers.js';

const stores = tempStores();
afterEach(() => stores.cleanup());
const settings = { learning: true, learningHalfLifeDays: 30, priors: true };
const docs: ToolDoc[] = [
  { key: 'fs_read', server: 'fs', name: 'read', description: 'Read a file' },
  { key: 'fs_write', server: 'fs', name: 'write', description: 'Write a file' },
];

function setup(overrides: Partial<typeof settings> = {}) {
  let now = 1_700_000_000_000;
  const store = stores.open({ clock: () => now });
  const recorder = new CallRecorder({ store, record: true, log: moduleLogger('test') });
  const search = new ToolSearch({ settings: { ...settings, ...overrides }, store, stats: recorder.stats, log: moduleLogger('test'), serverDescription: () => undefined, clock: () => now });
  return { store, recorder, search, advance: (ms: number) => (now += ms), now: () => now };
}

describe('learning from use', () => {
  it('teaches a shown tool the query when the same session calls it, once per search', () => {
    const { store, search } = setup();
    const engine = search.context.newEngine();
    engine.sync(docs);
    search.noteSearch('s1', 'open the notes', [{ server: 'fs', tool: 'read' }, { server: 'fs', tool: 'write' }]);
    search.noteCall('s2', 'fs', 'read'); // another session
    search.noteCall('s1', 'gh', 'read'); // not shown
    expect(store.learnedQueries.all()).toEqual([]);
    search.noteCall('s1', 'fs', 'read');
    search.noteCall('s1', 'fs', 'read'); // the same search teaches a tool once
    expect(store.learnedQueries.all().map((q) => [q.tool, q.query, q.weight])).toEqual([['read', 'open the notes', 1]]);
    expect(engine.lexical.expansionsOf('fs_read')).toEqual([{ query: expect.stringContaining('note'), weight: 1 }]); // normalised (stemmed) words
    expect(engine.lexical.search('notes', { limit: 1 })[0]?.key).toBe('fs_read');
    // A new engine (a restart) starts from the stored queries.
    const fresh = search.context.newEngine();
    fresh.sync(docs);
    expect(fresh.lexical.expansionsOf('fs_read')).toHaveLength(1);
  });

  it('forgets searches after ten minutes, when the session ends, or when learning is off', () => {
    const { store, search, advance } = setup();
    search.noteSearch('s1', 'old query', [{ server: 'fs', tool: 'read' }]);
    advance(10 * 60_000 + 1);
    search.noteCall('s1', 'fs', 'read');
    search.noteSearch('s2', 'query', [{ server: 'fs', tool: 'read' }]);
    search.forgetSession('s2');
    search.noteCall('s2', 'fs', 'read');
    expect(store.learnedQueries.all()).toEqual([]);

    const off = setup({ learning: false });
    off.search.noteSearch('s1', 'query', [{ server: 'fs', tool: 'read' }]);
    off.search.noteCall('s1', 'fs', 'read');
    expect(off.store.learnedQueries.all()).toEqual([]);
  });
});

describe('success-rate priors', () => {
  it('lowers tools that fail, more with more calls and right after a failure, and never below 0.8', () => {
    const { recorder, search, advance, now } = setup();
    const record = (tool: string, outcome: 'ok' | 'tool_error', n: number) => {
      for (let i = 0; i < n; i++) recorder.recordCall({ server: 'fs', tool, startedAt: now(), durationMs: 1, outcome, ...(outcome !== 'ok' && { errorClass: 'isError', errorMessage: 'no' }) });
    };
    record('read', 'ok', 10);
    record('write', 'tool_error', 1);
    record('flaky', 'tool_error', 50);
    expect(search.prior('fs', 'read')).toBe(1);
    expect(search.prior('fs', 'never_called')).toBe(1);
    const once = search.prior('fs', 'write');
    const often = search.prior('fs', 'flaky');
    expect(once).toBeLessThan(1);
    expect(often).toBeLessThan(once);
    expect(often).toBeGreaterThanOrEqual(0.8);
    advance(11 * 60_000); // the recent-failure nudge wears off
    expect(search.prior('fs', 'flaky')).toBeGreaterThan(often);
    expect(setup({ priors: false }).search.prior('fs', 'flaky')).toBe(1);
  });
});
