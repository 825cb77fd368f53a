// The activity feed's ring and listeners, without a gateway: the newest events are kept in order
// across the wrap, a call is published as its record and read back as an event, a viewer that
// throws is dropped, and filters apply to calls and server requests as documented.
import { describe, expect, it } from 'vitest';
import { ActivityFeed, matchesActivity, type Activity } from '../../src/metrics/activity.js';
import type { CallRecord } from '../../src/store/types.js';

const callOf = (tool: string, outcome: CallRecord['outcome'] = 'ok'): CallRecord => ({ server: 's', tool, startedAt: 1, durationMs: 2, outcome, correlationId: `c-${tool}` });

describe('ActivityFeed', () => {
  it('keeps the newest events in order across the wrap and replays the last N', () => {
    const feed = new ActivityFeed(3);
    for (const tool of ['a', 'b', 'c', 'd', 'e']) feed.publishCall(callOf(tool));
    expect(feed.recent().map((e) => (e.kind === 'call' ? e.tool : ''))).toEqual(['c', 'd', 'e']);
    expect(feed.recent(2).map((e) => (e.kind === 'call' ? e.tool : ''))).toEqual(['d', 'e']);
    expect(feed.recent(0)).toEqual([]);
  });

  it('tells listeners each event, bounds error text, and drops a listener that throws', () => {
    const feed = new ActivityFeed();
    const heard: Activity[] = [];
    const stop = feed.subscribe((e) => heard.push(e));
    feed.subscribe(() => {
      throw new Error('gone');
    });
    feed.publishCall({ ...callOf('x', 'protocol_error'), errorMessage: 'e'.repeat(5000) });
    feed.publish({ kind: 'server-request', at: 3, server: 's', method: 'sampling/createMessage', correlationId: 'c-x' });
    expect(feed.listening).toBe(1);
    expect(heard.map((e) => e.kind)).toEqual(['call', 'server-request']);
    expect(heard[0]).toMatchObject({ kind: 'call', tool: 'x', status: 'protocol_error', correlationId: 'c-x', durationMs: 2, at: 1 });
    expect((heard[0] as { error: string }).error.length).toBe(300);
    stop();
    feed.publishCall(callOf('y'));
    expect(heard).toHaveLength(2);
    expect(feed.listening).toBe(0);
  });

  it('filters: server and correlationId match both kinds, tool and status only calls', () => {
    const call: Activity = { kind: 'call', at: 1, server: 's', tool: 't', status: 'ok', durationMs: 1, correlationId: 'c' };
    const request: Activity = { kind: 'server-request', at: 1, server: 's', method: 'roots/list', correlationId: 'c' };
    expect([call, request].filter((e) => matchesActivity(e, { server: 's', correlationId: 'c' }))).toHaveLength(2);
    expect([call, request].filter((e) => matchesActivity(e, { tool: 't' }))).toEqual([call]);
    expect([call, request].filter((e) => matchesActivity(e, { status: 'ok' }))).toEqual([call]);
    expect([call, request].filter((e) => matchesActivity(e, { server: 'other' }))).toEqual([]);
  });
});
