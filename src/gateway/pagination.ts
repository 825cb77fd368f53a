// Owns paging of merged lists with opaque cursors. A cursor encodes the list kind and offset; a
// cursor from another list or a forged one is an Invalid Params error, never a silent restart.
import { ProtocolError } from '@modelcontextprotocol/server';

export const DEFAULT_PAGE_SIZE = 500;

interface CursorState {
  k: string;
  o: number;
}

export function page<T>(kind: string, items: readonly T[], cursor: unknown, pageSize: number): { items: T[]; nextCursor?: string } {
  const offset = cursor === undefined || cursor === null ? 0 : decode(kind, cursor);
  const end = offset + pageSize;
  const slice = items.slice(offset, end);
  return end < items.length ? { items: slice, nextCursor: encode({ k: kind, o: end }) } : { items: slice };
}

function encode(state: CursorState): string {
  return Buffer.from(JSON.stringify(state)).toString('base64url');
}

function decode(kind: string, cursor: unknown): number {
  try {
    if (typeof cursor !== 'string') throw new Error('not a string');
    const state = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as CursorState;
    if (state.k !== kind || !Number.isInteger(state.o) || state.o < 0) throw new Error('wrong list');
    return state.o;
  } catch {
    throw new ProtocolError(-32602, `Invalid cursor for ${kind}/list: pass the nextCursor of the previous page, or omit it to start over.`, { cursor });
  }
}
