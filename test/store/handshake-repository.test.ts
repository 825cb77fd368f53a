// Remembered handshakes: what a server answered to initialize survives a restart (a real SQLite
// file reopened), a newer handshake replaces the older one, and an unknown server has none.
import { afterEach, describe, expect, it } from 'vitest';
import { manualClock, tempStores } from './helpers.js';

const stores = tempStores();
afterEach(() => stores.cleanup());

describe('HandshakeRepository', () => {
  it('keeps a server\'s capabilities and instructions across a reopen, replaced by the newest', () => {
    const clock = manualClock(Date.UTC(2026, 0, 1));
    const dir = stores.dir();
    const first = stores.open({ clock: clock.now }, dir);
    expect(first.handshakes.load('fs #abcd1234')).toBeUndefined();
    first.handshakes.save('fs #abcd1234', { capabilities: { tools: { listChanged: true } }, instructions: 'Use read_file for files.' });
    clock.set(Date.UTC(2026, 0, 2));
    first.handshakes.save('fs #abcd1234', { capabilities: { tools: {}, resources: { subscribe: true } } });
    first.handshakes.save('other #00000000', { capabilities: { prompts: {} }, instructions: 'x' });
    first.close();

    const again = stores.open({ clock: clock.now }, dir);
    expect(again.handshakes.load('fs #abcd1234')).toEqual({ capabilities: { tools: {}, resources: { subscribe: true } }, seenAt: Date.UTC(2026, 0, 2) });
    expect(again.handshakes.load('other #00000000')).toEqual({ capabilities: { prompts: {} }, instructions: 'x', seenAt: Date.UTC(2026, 0, 2) });
    expect(again.handshakes.load('fs')).toBeUndefined();
  });
});
