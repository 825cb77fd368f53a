// The call journal's line encoder against JSON.stringify of the same row: the cached heads, the
// session and identity caches and the number template must produce exactly the JSON a reader expects.
import { describe, expect, it } from 'vitest';
import { LineEncoder } from '../../src/store/journal-line.js';
import { MAX_ERROR_MESSAGE } from '../../src/store/metrics-repository.js';
import type { CallRecord } from '../../src/store/types.js';

const reference = (c: CallRecord) => {
  const message = c.errorMessage !== undefined && c.errorMessage.length > MAX_ERROR_MESSAGE ? `${c.errorMessage.slice(0, MAX_ERROR_MESSAGE - 1)}…` : c.errorMessage;
  const bytes = c.resultBytes !== undefined && Number.isFinite(c.resultBytes) ? c.resultBytes : null;
  return `${JSON.stringify([c.server, c.tool, c.session ?? null, Math.trunc(c.startedAt), c.durationMs, c.outcome, c.errorClass ?? null, message ?? null, bytes, c.correlationId ?? null, c.identity ?? ''])}\n`;
};

describe('LineEncoder', () => {
  it('writes the same line as JSON.stringify of the row, call after call', () => {
    const encoder = new LineEncoder();
    const calls: CallRecord[] = [
      { server: 'fs', tool: 'read', session: 's1', startedAt: 1_763_797_300_123, durationMs: 0.52, outcome: 'ok', resultBytes: 5, correlationId: 'a1b2c3-1' },
      { server: 'fs', tool: 'read', session: 's1', startedAt: 1_763_797_300_124.9, durationMs: 12, outcome: 'ok' },
      { server: 'fs', tool: 'read', session: 's2', startedAt: 1, durationMs: 0, outcome: 'tool_error', errorClass: 'isError', errorMessage: 'no such file "x"\n\ttab \u0000 nul' },
      { server: 'fs', tool: 'write', startedAt: 2, durationMs: 1e-7, outcome: 'protocol_error', errorClass: '-32602', errorMessage: 'x'.repeat(MAX_ERROR_MESSAGE + 10) },
      { server: 'we"ird\\srv', tool: 'ツール', session: 'ß', startedAt: 3, durationMs: 123456.78, outcome: 'timeout', errorClass: '-32011' },
      { server: 'fs', tool: 'read', session: 's1', startedAt: 4, durationMs: 3.5, outcome: 'cancelled', resultBytes: Number.NaN },
      { server: 'fs', tool: 'read', startedAt: 5, durationMs: 1, outcome: 'server_down', errorMessage: 'down' },
      { server: 'fs', identity: 'a1b2c3d4', tool: 'read', startedAt: 6, durationMs: 1, outcome: 'ok' },
      { server: 'fs', identity: 'a1b2c3d4', tool: 'read', startedAt: 7, durationMs: 1, outcome: 'ok' },
      { server: 'fs', identity: '0f0f0f0f', tool: 'read', startedAt: 8, durationMs: 1, outcome: 'ok' },
    ];
    for (const call of calls) {
      const line = encoder.encode(call);
      expect(line).toBe(reference(call));
      expect(JSON.parse(line)).toHaveLength(11);
    }
  });
});
