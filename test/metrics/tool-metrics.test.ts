// includeMetrics: listed tools carry success rate and median latency in _meta["switchboard/metrics"],
// read from the store at most once per cache period; tools without calls are left as they are.
import { afterEach, describe, expect, it } from 'vitest';
import { TOOL_METRICS_META_KEY, ToolMetricsAnnotator } from '../../src/gateway/tool-metrics.js';
import { settingsSchemas } from '../../src/config/settings-schema.js';
import { tempStores } from '../store/helpers.js';

const stores = tempStores();
afterEach(() => stores.cleanup());

const NOW = 1_700_000_000_000;
const origins: Record<string, { server: string; tool: string }> = {
  fs_read: { server: 'fs', tool: 'read' },
  fs_write: { server: 'fs', tool: 'write' },
};
const originOf = (name: string) => origins[name];

function setup() {
  let now = NOW;
  const store = stores.open({ clock: () => now });
  const errors: string[] = [];
  const annotator = new ToolMetricsAnnotator(store.metrics, { clock: () => now, cacheMs: 10_000, onError: (m) => errors.push(m) });
  const record = (tool: string, outcome: 'ok' | 'tool_error' | 'cancelled', durationMs: number) =>
    store.metrics.recordCall({ server: 'fs', tool, startedAt: now, durationMs, outcome });
  return { store, annotator, errors, record, advance: (ms: number) => (now += ms) };
}

describe('ToolMetricsAnnotator', () => {
  it('puts success rate, p50 and calls in _meta, keeps other _meta keys, and leaves tools without calls alone', () => {
    const { annotator, record } = setup();
    record('read', 'ok', 10);
    record('read', 'ok', 20);
    record('read', 'tool_error', 30);
    record('read', 'cancelled', 40);
    const tools = [
      { name: 'fs_read', description: 'Read a file', _meta: { other: 1 } },
      { name: 'fs_write', description: 'Write a file' },
      { name: 'search_tools', description: 'a meta-tool' },
    ];
    const listed = annotator.annotate(tools, originOf);
    expect(listed[0]).toEqual({
      name: 'fs_read',
      description: 'Read a file',
      _meta: { other: 1, [TOOL_METRICS_META_KEY]: { success_rate: 0.667, p50_ms: expect.any(Number), calls: 4 } },
    });
    const p50 = (listed[0]._meta as unknown as Record<string, { p50_ms: number }>)[TOOL_METRICS_META_KEY].p50_ms;
    expect(p50).toBeGreaterThanOrEqual(20);
    expect(p50).toBeLessThanOrEqual(30);
    expect(listed[1]).toBe(tools[1]);
    expect(listed[2]).toBe(tools[2]);
    expect(tools[0]._meta).toEqual({ other: 1 }); // the catalog's own objects are not changed
  });

  it('reads the store at most once per cache period', () => {
    const { annotator, record, advance } = setup();
    record('read', 'ok', 10);
    const meta = (tools: Array<Record<string, unknown>>) => (tools[0]._meta as Record<string, { calls: number }> | undefined)?.[TOOL_METRICS_META_KEY];
    expect(meta(annotator.annotate([{ name: 'fs_read' }], originOf))?.calls).toBe(1);
    record('read', 'ok', 10);
    expect(meta(annotator.annotate([{ name: 'fs_read' }], originOf))?.calls).toBe(1);
    advance(10_000);
    expect(meta(annotator.annotate([{ name: 'fs_read' }], originOf))?.calls).toBe(2);
  });

  it('lists the tools without metrics, and says why, when the store cannot be read', () => {
    const { store, annotator, errors } = setup();
    store.close();
    const tools = [{ name: 'fs_read' }];
    expect(annotator.annotate(tools, originOf)).toEqual(tools);
    expect(errors).toEqual([expect.stringContaining('call metrics unavailable')]);
  });

  it('is a setting (off unless set)', () => {
    expect(settingsSchemas().settingsSchema.parse({ includeMetrics: true }).includeMetrics).toBe(true);
    expect(() => settingsSchemas().settingsSchema.parse({ includeMetrics: 'yes' })).toThrow();
  });
});
