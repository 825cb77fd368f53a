// Owns the Metrics view: calls, errors and latency (p50 and p95) over time as charts, per server or per
// tool, for a chosen window, from /api/metrics/series (the store's raw calls and daily rollups).
import { useMemo, useState } from 'preact/hooks';
import { get } from '../api';
import { useResource } from '../hooks';
import { ErrorNote, Empty } from '../components/Bits';
import { TimeChart, type ChartLine } from '../components/TimeChart';
import type { SeriesResponse } from '../types';

const WINDOWS = ['15m', '1h', '6h', '24h', '7d'];

export function MetricsView({ servers }: { servers: string[] }) {
  const [window, setWindow] = useState('15m');
  const [groupBy, setGroupBy] = useState<'server' | 'tool'>('server');
  const [server, setServer] = useState('');
  const series = useResource(
    () => get<SeriesResponse>(`/api/metrics/series?since=${window}&groupBy=${groupBy}${server ? `&server=${encodeURIComponent(server)}` : ''}`),
    [window, groupBy, server],
    10_000,
  );

  const charts = useMemo(() => {
    const data = series.data;
    if (!data || data.series.length === 0) return undefined;
    const first = Math.floor(data.since / data.bucketMs) * data.bucketMs;
    const times: number[] = [];
    for (let t = first; t <= data.until; t += data.bucketMs) times.push(t);
    // Rolled-up days sit at a day's start, possibly outside the bucket grid: add their times too.
    const extra = new Set(data.series.flatMap((s) => s.points.map((p) => p.t)).filter((t) => (t - first) % data.bucketMs !== 0 || t < first));
    const all = [...new Set([...times, ...extra])].sort((a, b) => a - b);
    const at = new Map(all.map((t, i) => [t, i]));
    const line = (pick: (p: SeriesResponse['series'][number]['points'][number]) => number, gap: number | null) =>
      data.series.map((s): ChartLine => {
        const values: Array<number | null> = all.map(() => gap);
        for (const p of s.points) values[at.get(p.t)!] = pick(p);
        return { label: s.tool ? `${s.server}.${s.tool}` : s.server, values };
      });
    return {
      times: all,
      calls: line((p) => p.calls, 0),
      errors: line((p) => p.errors, 0),
      p50: line((p) => p.p50Ms, null),
      p95: line((p) => p.p95Ms, null),
      bucket: data.bucketMs,
      total: data.series.reduce((n, s) => n + s.points.reduce((m, p) => m + p.calls, 0), 0),
      failed: data.series.reduce((n, s) => n + s.points.reduce((m, p) => m + p.errors, 0), 0),
    };
  }, [series.data]);

  return (
    <section>
      <div class="view-head">
        <h1>Metrics</h1>
        <div class="segmented" role="group" aria-label="Window">
          {WINDOWS.map((w) => (
            <button key={w} class={w === window ? 'active' : ''} onClick={() => setWindow(w)}>{w}</button>
          ))}
        </div>
        <select value={groupBy} onChange={(e) => setGroupBy(e.currentTarget.value as 'server' | 'tool')} aria-label="Group by">
          <option value="server">per server</option>
          <option value="tool">per tool</option>
        </select>
        <select value={server} onChange={(e) => setServer(e.currentTarget.value)} aria-label="Server">
          <option value="">all servers</option>
          {servers.map((s) => <option key={s} value={s}>{s}</option>)}
        </select>
      </div>
      <ErrorNote message={series.error} />
      {series.data && !charts && <Empty>No calls in the last {window}.</Empty>}
      {charts && (
        <>
          <p class="muted small" data-testid="metrics-summary">
            {charts.total} calls, {charts.failed} failed, in buckets of {charts.bucket >= 60_000 ? `${charts.bucket / 60_000} min` : `${charts.bucket / 1000} s`}
          </p>
          <div class="charts">
            <TimeChart title="Calls" times={charts.times} lines={charts.calls} unit="" counts />
            <TimeChart title="Errors" times={charts.times} lines={charts.errors} unit="" counts />
            <TimeChart title="Latency p50" times={charts.times} lines={charts.p50} unit="ms" />
            <TimeChart title="Latency p95" times={charts.times} lines={charts.p95} unit="ms" />
          </div>
        </>
      )}
    </section>
  );
}
