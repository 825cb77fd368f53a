// Resource subscriptions are reference counted per connection and URI: only the first subscriber
// subscribes downstream and only the last one to leave unsubscribes.
import { describe, expect, it } from 'vitest';
import { SubscriptionRegistry } from '../../src/gateway/subscriptions.js';
import type { Connection } from '../../src/servers/connection.js';

describe('SubscriptionRegistry', () => {
  const a = {} as Connection;
  const b = {} as Connection;

  it('counts subscribers per connection and URI', () => {
    const registry = new SubscriptionRegistry<string>();
    expect(registry.add(a, 'x://1', 's1')).toBe(true);
    expect(registry.add(a, 'x://1', 's2')).toBe(false);
    expect(registry.add(b, 'x://1', 's1')).toBe(true);
    expect([...registry.subscribers(a, 'x://1')]).toEqual(['s1', 's2']);
    expect(registry.remove(a, 'x://1', 's1')).toBe(false);
    expect(registry.remove(a, 'x://1', 's1')).toBe(false); // not subscribed any more
    expect(registry.remove(a, 'x://1', 's2')).toBe(true);
    expect(registry.subscribers(a, 'x://1').size).toBe(0);
  });

  it('lists what a session holds and forgets a stopped connection', () => {
    const registry = new SubscriptionRegistry<string>();
    registry.add(a, 'x://1', 's1');
    registry.add(b, 'x://2', 's1');
    registry.add(b, 'x://2', 's2');
    expect(registry.heldBy('s1')).toEqual([
      { connection: a, uri: 'x://1' },
      { connection: b, uri: 'x://2' },
    ]);
    registry.dropConnection(b);
    expect(registry.heldBy('s2')).toEqual([]);
  });
});
