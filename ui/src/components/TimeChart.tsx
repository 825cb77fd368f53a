// Owns one uPlot time chart: a line per series over shared timestamps, redrawn when its data changes and
// resized with its container.
import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface ChartLine {
  label: string;
  values: Array<number | null>;
}

const PALETTE = ['#2563eb', '#dc2626', '#059669', '#d97706', '#7c3aed', '#0891b2', '#db2777', '#65a30d', '#475569', '#ea580c'];

/** Counts are drawn as steps over their bucket with whole-number ticks; latencies as lines. */
export function TimeChart({ title, times, lines, unit, counts = false }: { title: string; times: number[]; lines: ChartLine[]; unit: string; counts?: boolean }) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = host.current;
    if (!element) return;
    const options: uPlot.Options = {
      width: Math.max(element.clientWidth, 300),
      height: 220,
      legend: { show: true },
      cursor: { points: { size: 6 } },
      scales: { x: { time: true }, y: { range: (_u, min, max) => [Math.min(0, min), max > 0 ? max * 1.1 : 1] } },
      axes: [
        { stroke: '#64748b', grid: { stroke: '#e2e8f0' } },
        {
          stroke: '#64748b',
          grid: { stroke: '#e2e8f0' },
          size: 60,
          ...(counts && { incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 50_000, 100_000] }),
          values: (_u: uPlot, ticks: number[]) => ticks.map((t) => `${+t.toFixed(1)}${unit ? ` ${unit}` : ''}`),
        },
      ],
      series: [
        {},
        ...lines.map((line, i) => ({
          label: line.label,
          stroke: PALETTE[i % PALETTE.length],
          width: 2,
          spanGaps: false,
          ...(counts ? { paths: uPlot.paths.stepped!({ align: 1 }), fill: `${PALETTE[i % PALETTE.length]}1f`, points: { show: false } } : { points: { show: true, size: 5 } }),
        })),
      ],
    };
    const data = [times.map((t) => t / 1000), ...lines.map((l) => l.values)] as uPlot.AlignedData;
    const chart = new uPlot(options, data, element);
    const resize = new ResizeObserver(() => chart.setSize({ width: Math.max(element.clientWidth, 300), height: 220 }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
  }, [times, lines, unit, counts]);
  return (
    <figure class="chart">
      <figcaption>{title}</figcaption>
      <div ref={host} class="chart-host" />
    </figure>
  );
}
