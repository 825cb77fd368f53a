// Paging of merged lists: opaque cursors that walk a list exactly once, and clear errors for a
// cursor that is forged or belongs to another list.
import { describe, expect, it } from 'vitest';
import { ProtocolError } from '@modelcontextprotocol/server';
import { page } from '../../src/gateway/pagination.js';

describe('page', () => {
  const items = Array.from({ length: 7 }, (_, i) => `t${i}`);

  it('walks a list in pages with opaque cursors and ends without one', () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const result = page('tools', items, cursor, 3);
      seen.push(...result.items);
      cursor = result.nextCursor;
      if (cursor) expect(cursor).not.toMatch(/^\d+$/);
      pages++;
    } while (cursor);
    expect(seen).toEqual(items);
    expect(pages).toBe(3);
  });

  it('returns everything in one page when it fits', () => {
    expect(page('tools', items, undefined, 500)).toEqual({ items });
  });

  it('rejects a forged cursor and a cursor of another list with Invalid Params', () => {
    const { nextCursor } = page('tools', items, undefined, 3);
    for (const bad of ['not-a-cursor', 42, page('prompts', items, undefined, 3).nextCursor]) {
      let error: unknown;
      try {
        page('tools', items, bad, 3);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ProtocolError);
      expect((error as ProtocolError).code).toBe(-32602);
    }
    expect(page('tools', items, nextCursor, 3).items).toEqual(['t3', 't4', 't5']);
  });
});
