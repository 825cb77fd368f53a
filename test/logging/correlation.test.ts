// Correlation ids on request contexts (src/logging/correlation.ts): one per context, minted on first
// use and stable after; an adopted id replaces it; a frozen context gets one too; the id never shows
// in the context's JSON or keys.
import { describe, expect, it } from 'vitest';
import { adoptCorrelation, correlationOf } from '../../src/logging/correlation.js';

describe('correlation ids', () => {
  it('are minted once per context and kept', () => {
    const a = { mcpReq: { id: 1 } };
    const b = { mcpReq: { id: 1 } };
    const id = correlationOf(a);
    expect(id).toMatch(/^[0-9a-f]{6}-[0-9a-z]+$/);
    expect(correlationOf(a)).toBe(id);
    expect(correlationOf(b)).not.toBe(id);
    expect(JSON.stringify(a)).toBe('{"mcpReq":{"id":1}}');
    expect(Object.keys(a)).toEqual(['mcpReq']);
  });

  it('can be adopted from another request, also by a frozen context', () => {
    const discovery = {};
    const execute = {};
    const frozen = Object.freeze({ mcpReq: { id: 2 } });
    adoptCorrelation(execute, correlationOf(discovery));
    expect(correlationOf(execute)).toBe(correlationOf(discovery));
    const own = correlationOf(frozen);
    expect(correlationOf(frozen)).toBe(own);
    adoptCorrelation(frozen, correlationOf(discovery));
    expect(correlationOf(frozen)).toBe(correlationOf(discovery));
  });
});
