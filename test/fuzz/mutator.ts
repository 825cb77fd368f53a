// Deterministic mutated JSON-RPC frames for the fuzz tests: valid seeds, then one of a dozen
// mutations (byte flips, truncation, wrong types, missing fields, deep nesting, long strings, junk).

/** A small seeded PRNG (mulberry32), so a failing run can be replayed: the one the optimizer's statistics use. */
export { seededRandom as prng } from '../../src/optimize/stats.js';

const SEEDS: Array<(id: number) => Record<string, unknown>> = [
  (id) => ({ jsonrpc: '2.0', id, method: 'tools/list', params: {} }),
  (id) => ({ jsonrpc: '2.0', id, method: 'ping' }),
  (id) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'everything_echo', arguments: { message: 'hi' } } }),
  (id) => ({ jsonrpc: '2.0', id, method: 'prompts/list' }),
  (id) => ({ jsonrpc: '2.0', id, method: 'resources/read', params: { uri: 'demo://resource/static/document/1' } }),
  (id) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'everything_get-sum', arguments: { a: 1, b: 2 } } }),
  (id) => ({ jsonrpc: '2.0', id, method: 'completion/complete', params: { ref: { type: 'ref/prompt', name: 'x' }, argument: { name: 'a', value: '' } } }),
];

const JUNK: unknown[] = [null, true, 0, -1, 1e308, '', 'x'.repeat(1000), [], {}, [1, [2, [3]]], { a: { b: {} } }];

/** One mutated frame (a line of text) for request number `id`. */
export function mutatedFrame(random: () => number, id: number): string {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const frame = pick(SEEDS)(id);
  const params = (frame.params ?? {}) as Record<string, unknown>;
  switch (Math.floor(random() * 12)) {
    case 0:
      return JSON.stringify(frame); // unmutated
    case 1: {
      const text = JSON.stringify(frame);
      const at = Math.floor(random() * text.length);
      return text.slice(0, at) + String.fromCharCode(32 + Math.floor(random() * 95)) + text.slice(at + 1);
    }
    case 2: {
      const text = JSON.stringify(frame);
      return text.slice(0, Math.floor(random() * text.length));
    }
    case 3:
      return JSON.stringify({ ...frame, method: pick(JUNK) });
    case 4:
      return JSON.stringify({ ...frame, params: pick(JUNK) });
    case 5: {
      const { method: _m, ...rest } = frame;
      return JSON.stringify(rest);
    }
    case 6: {
      const { jsonrpc: _j, ...rest } = frame;
      return JSON.stringify(rest);
    }
    case 7: {
      const depth = 10 + Math.floor(random() * 5000);
      return JSON.stringify({ ...frame, params: { ...params, name: 'everything_echo', arguments: { message: '@' } } }).replace('"@"', `${'['.repeat(depth)}${']'.repeat(depth)}`);
    }
    case 8:
      return JSON.stringify({ ...frame, params: { ...params, name: 'n'.repeat(Math.floor(random() * 4000)) } });
    case 9:
      return JSON.stringify({ ...frame, method: `${frame.method as string}/${pick(['x', '', '__proto__', 'constructor'])}` });
    case 10:
      return JSON.stringify({ ...frame, params: { ...params, arguments: Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, pick(JUNK)])) } });
    default:
      return Buffer.from(Array.from({ length: 1 + Math.floor(random() * 200) }, () => Math.floor(random() * 256)).filter((b) => b !== 10)).toString('latin1');
  }
}

/** The id a gateway must answer for this frame, or undefined when no answer is owed (not JSON, a notification, a response). */
export function owedId(frame: string): string | number | undefined {
  let value: unknown;
  try {
    value = JSON.parse(frame);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const record = value as Record<string, unknown>;
  const id = record.id;
  if (!(typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)))) return undefined;
  if (!('method' in record) && ('result' in record || 'error' in record)) return undefined; // a response: nothing is owed
  return id;
}
