// The tool_pins table on a real SQLite file: first sight pins and never overwrites, a differing listing is
// recorded beside the pin, approval takes only the definition that was reviewed, and the generation a
// running gateway polls moves only on approval. Pins of one identity never touch another's.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/index.js';
import { manualClock, tempStores } from './helpers.js';

const stores = tempStores();
const clock = manualClock(Date.UTC(2026, 0, 1, 12));
let store: Store;
beforeEach(() => {
  clock.set(Date.UTC(2026, 0, 1, 12));
  store = stores.open({ clock: clock.now });
});
afterEach(() => stores.cleanup());

const v1 = { hash: 'a'.repeat(64), definition: { name: 'echo', description: 'v1' } };
const v2 = { hash: 'b'.repeat(64), definition: { name: 'echo', description: 'v2' } };
const v3 = { hash: 'c'.repeat(64), definition: { name: 'echo', description: 'v3' } };

describe('PinRepository', () => {
  it('pins on first sight only, keeps a differing definition beside the pin, and approves exactly the reviewed one', () => {
    const pins = store.pins;
    pins.record('raw', 'id1', { pin: [{ tool: 'echo', ...v1 }], seen: [] });
    clock.set(clock.now() + 1000);
    pins.record('raw', 'id1', { pin: [{ tool: 'echo', ...v2 }], seen: [] }); // a second "first sight" does not overwrite
    expect(pins.pins('raw', 'id1')).toEqual([{ server: 'raw', identity: 'id1', tool: 'echo', hash: v1.hash, definition: v1.definition, pinnedAt: Date.UTC(2026, 0, 1, 12) }]);

    const before = pins.generation();
    pins.record('raw', 'id1', { pin: [], seen: [{ tool: 'echo', seen: v2 }] });
    expect(pins.pins('raw', 'id1')[0]).toMatchObject({ hash: v1.hash, seen: { hash: v2.hash, definition: v2.definition, at: clock.now() } });
    expect(pins.generation()).toBe(before); // seeing a change is not an approval

    // The server changed again after the review: approving the reviewed hash does nothing.
    pins.record('raw', 'id1', { pin: [], seen: [{ tool: 'echo', seen: v3 }] });
    expect(pins.approve('raw', 'id1', 'echo', v2.hash)).toBe(false);
    expect(pins.generation()).toBe(before);
    clock.set(clock.now() + 5000);
    expect(pins.approve('raw', 'id1', 'echo', v3.hash)).toBe(true);
    expect(pins.pins('raw', 'id1')).toEqual([{ server: 'raw', identity: 'id1', tool: 'echo', hash: v3.hash, definition: v3.definition, pinnedAt: Date.UTC(2026, 0, 1, 12), approvedAt: clock.now() }]);
    expect(pins.generation()).toBe(before + 1);
    expect(pins.approve('raw', 'id1', 'echo', v3.hash)).toBe(false); // nothing waiting any more
  });

  it('keeps identities apart and clears a change when the server goes back to the pin', () => {
    const pins = store.pins;
    pins.record('raw', 'id1', { pin: [{ tool: 'echo', ...v1 }], seen: [] });
    pins.record('raw', 'id2', { pin: [{ tool: 'echo', ...v2 }], seen: [] });
    expect(pins.pins('raw').map((p) => [p.identity, p.hash])).toEqual([['id1', v1.hash], ['id2', v2.hash]]);
    pins.record('raw', 'id1', { pin: [], seen: [{ tool: 'echo', seen: v3 }] });
    expect(pins.pins('raw', 'id2')[0]!.seen).toBeUndefined();
    pins.record('raw', 'id1', { pin: [], seen: [{ tool: 'echo', seen: undefined }] });
    expect(pins.pins('raw', 'id1')[0]!.seen).toBeUndefined();
  });
});
