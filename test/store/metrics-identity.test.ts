// Call metrics belong to a server identity, not to a key (issue 19 item 1): rows of two servers both
// named "x" aggregate apart, a scope (key -> identity) reads and resets only its own rows, the journal
// carries the identity through both insert paths (and reads older 10-field lines as identity ''),
// and a store upgraded from before identities keeps its rows with identity ''.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { JOURNAL_DIR, MIGRATIONS, openDatabase, type CallRecord } from '../../src/store/index.js';
import { ingestJournal } from '../../src/store/journal-ingest.js';
import { SqliteMetricsRepository } from '../../src/store/metrics-repository.js';
import { tempStores } from './helpers.js';

const stores = tempStores();
afterEach(() => stores.cleanup());

const A = 'aaaaaaaa';
const B = 'bbbbbbbb';
const START = Date.UTC(2025, 5, 1, 12);

function call(identity: string | undefined, outcome: CallRecord['outcome'] = 'ok', i = 0): CallRecord {
  return { server: 'x', ...(identity !== undefined && { identity }), tool: 'echo', startedAt: START + i, durationMs: 1 + i, outcome };
}

describe('metrics per server identity', () => {
  it('aggregates each identity apart and reads and resets only the rows of a scope', () => {
    const store = stores.open({ clock: () => START + 3 * 86_400_000 });
    store.metrics.recordCall(call(A, 'ok', 1));
    store.metrics.recordCall(call(A, 'ok', 2));
    store.metrics.recordCall(call(B, 'tool_error', 3));
    store.metrics.recordCall(call(undefined, 'ok', 4));

    const all = store.metrics.toolStats();
    expect(all.map((s) => [s.identity, s.calls])).toEqual([['', 1], [A, 2], [B, 1]]);
    const onlyA = store.metrics.toolStats({ scope: new Map([['x', A]]) });
    expect(onlyA).toEqual([expect.objectContaining({ server: 'x', identity: A, calls: 2, successRate: 1 })]);
    expect(store.metrics.toolStats({ scope: new Map([['y', A]]) })).toEqual([]);
    expect(store.metrics.toolStats({ scope: new Map() })).toEqual([]);
    expect(store.metrics.recentCalls({ identity: B }).map((c) => c.identity)).toEqual([B]);

    // Rolled up into daily rows, the identities stay apart.
    store.metrics.rollup();
    expect(store.metrics.toolStats({ scope: new Map([['x', B]]) })).toEqual([expect.objectContaining({ identity: B, calls: 1, failures: 1 })]);
    expect(store.metrics.toolCounts().map((c) => c.identity).sort()).toEqual(['', A, B]);

    expect(store.metrics.reset({ server: 'x', scope: new Map([['x', A]]) })).toEqual({ rawDeleted: 2, dailyDeleted: 1 });
    expect(store.metrics.toolStats().map((s) => s.identity)).toEqual(['', B]);
  });

  it('journals the identity (bulk insert, line-by-line fallback) and reads lines written before it as identity ""', () => {
    const dir = stores.dir();
    const store = stores.open({ callJournal: { onError: (m) => expect.fail(m), mapped: false } }, dir);
    store.metrics.recordCall(call(A));
    expect(store.metrics.toolStats().map((s) => s.identity)).toEqual([A]);

    // A journal an older gateway wrote (10 fields), and one with a damaged line (the line-by-line path).
    const journals = path.join(dir, JOURNAL_DIR);
    const line = (fields: unknown[]) => `${JSON.stringify(fields)}\n`;
    const tail = ['s', START, 1, 'ok', null, null, null, null];
    writeFileSync(path.join(journals, 'old.jsonl'), line(['old', 'echo', ...tail]));
    writeFileSync(path.join(journals, 'new.jsonl'), `${line(['new', 'echo', ...tail, B])}not json\n`);
    const direct = new SqliteMetricsRepository(store.db, { clock: Date.now });
    expect(ingestJournal(store.db, direct, journals, 'old.jsonl')).toEqual({ calls: 1, skippedLines: 0 });
    expect(ingestJournal(store.db, direct, journals, 'new.jsonl')).toEqual({ calls: 1, skippedLines: 1 });
    const byServer = Object.fromEntries(store.metrics.toolStats().map((s) => [s.server, s.identity]));
    expect(byServer).toEqual({ x: A, old: '', new: B });
  });

  it('keeps the rows of a store from before identities, with identity ""', () => {
    const dir = stores.dir();
    const before = MIGRATIONS.find((m) => m.name === 'metrics_by_server_identity')!.version - 1;
    // Written as that schema had them (this code's statements name the identity column).
    const old = openDatabase(dir, { migrations: MIGRATIONS.slice(0, before) });
    old.db.prepare("INSERT INTO metrics_calls (server, tool, started_at, duration_ms, outcome) VALUES ('x', 'echo', ?, 1, 'ok')").run(START + 3 * 86_400_000);
    old.db
      .prepare("INSERT INTO metrics_daily VALUES ('x', 'echo', '2025-06-01', 1, 1, 0, 0, 1, 1, 1, 1, NULL, NULL, ?)")
      .run(START);
    old.close();
    const store = stores.open({}, dir);
    expect(store.metrics.toolStats()).toEqual([expect.objectContaining({ server: 'x', identity: '', calls: 2 })]);
    expect(store.metrics.toolStats({ scope: new Map([['x', A]]) })).toEqual([]);
    // New calls of the same key roll up beside the old daily row, not into it.
    store.metrics.recordCall(call(A));
    store.metrics.rollup(START + 3 * 86_400_000);
    expect(store.metrics.toolStats().map((s) => [s.identity, s.calls])).toEqual([['', 2], [A, 1]]);
  });
});
