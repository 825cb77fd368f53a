// Owns the Optimization view: per server how many tools carry a promoted description (●●●○○ 3/5), per tool
// its status and, opened, the detail (canonical vs promoted text, per-category rates before → after with
// intervals, golden prompts, Revert / Re-optimize); starting a run (Optimize Tools), its live progress from
// /api/optimize/events with cancel, and exporting the report.
import { useEffect, useState } from 'preact/hooks';
import { api, authHeaders, get } from '../api';
import { useResource } from '../hooks';
import { followEvents } from '../sse';
import { Badge, Empty, ErrorNote } from '../components/Bits';
import { OptimizeDetail } from './OptimizeDetail';
import { OptimizeRunForm } from './OptimizeRunForm';
import type { OptimizeState, RunProgress } from '../types';

export function OptimizationView() {
  const state = useResource(() => get<OptimizeState>('/api/optimize'), []);
  const [run, setRun] = useState<RunProgress | null>(null);
  const [stream, setStream] = useState<string>('connecting');
  const [open, setOpen] = useState<string | undefined>(undefined);
  const [starting, setStarting] = useState<{ server?: string; tools?: string[] } | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);

  useEffect(() => {
    if (state.data?.run && !run) setRun(state.data.run);
  }, [state.data]);
  useEffect(
    () =>
      followEvents('/api/optimize/events', {
        onEvent: (type, data) => {
          if (type !== 'run') return;
          const progress = data as RunProgress;
          setRun(progress);
          if (progress.state !== 'running') void state.reload();
        },
        onStatus: (s) => setStream(s),
      }),
    [],
  );

  const cancel = async () => {
    try {
      await api('DELETE', '/api/optimize/runs/current');
    } catch (e) {
      setError((e as Error).message);
    }
  };
  const exportReport = async (format: 'md' | 'json') => {
    const response = await fetch(`/api/optimize/report?format=${format}`, { headers: authHeaders() });
    if (!response.ok) return setError(`Export: ${(await response.text()).slice(0, 300)}`);
    const link = document.createElement('a');
    link.href = URL.createObjectURL(await response.blob());
    link.download = `switchboard-optimization.${format}`;
    link.click();
    URL.revokeObjectURL(link.href);
  };

  if (state.error && !state.data) {
    return (
      <section>
        <div class="view-head"><h1>Optimization</h1></div>
        <Empty>{state.error}</Empty>
      </section>
    );
  }
  const data = state.data;
  const running = run?.state === 'running';
  return (
    <section>
      <div class="view-head">
        <h1>Optimization</h1>
        <span class={`live ${stream}`}>{stream === 'open' ? 'live' : stream}</span>
        {data && <span class="muted">{data.servers.reduce((n, s) => n + s.optimized, 0)}/{data.servers.reduce((n, s) => n + s.total, 0)} tools optimized</span>}
        <span class="spacer" />
        <button onClick={() => exportReport('md')}>Export report</button>
        <button class="primary" disabled={running || !data} onClick={() => setStarting({})}>Optimize all</button>
      </div>
      <ErrorNote message={error ?? state.error} />
      {run && <RunBox run={run} onCancel={cancel} />}
      {data?.servers.map((server) => (
        <div class="opt-server" key={server.server} data-server={server.server}>
          <div class="opt-server-head">
            <h2>
              {server.server} <span class="dots" aria-hidden="true">{server.tools.map((t) => (t.optimized ? '●' : '○')).join('')}</span>{' '}
              <span class="muted small">{server.optimized}/{server.total} tools optimized</span>
            </h2>
            <button class="small" disabled={running} onClick={() => setStarting({ server: server.server })}>Optimize tools…</button>
          </div>
          <table class="grid compact">
            <thead>
              <tr>
                <th>Tool</th>
                <th>Status</th>
                <th class="num">Prompts d/i/n</th>
                <th>direct</th>
                <th>indirect</th>
                <th>negative</th>
              </tr>
            </thead>
            <tbody>
              {server.tools.map((t) => {
                const id = `${server.server}\u0000${t.tool}`;
                const rate = (category: string) => {
                  const c = t.evaluation?.categories.find((x) => x.category === category);
                  if (!c) return <span class="muted">–</span>;
                  return (
                    <span class="mono small">
                      {Math.round(c.before.rate * 100)}%{c.after ? ` → ${Math.round(c.after.rate * 100)}%` : ''}
                    </span>
                  );
                };
                return (
                  <>
                    <tr key={id} class={`clickable ${t.enabled ? '' : 'disabled'}`} data-tool={t.tool} onClick={() => setOpen(open === id ? undefined : id)}>
                      <td><code>{t.tool}</code></td>
                      <td>{t.optimized ? <Badge value="ok" label={t.forced ? 'optimized (forced)' : 'optimized'} /> : t.stale ? <Badge value="degraded" label="stale" /> : <span class="muted">Not optimized</span>}</td>
                      <td class="num">{t.prompts.total ? `${t.prompts.direct}/${t.prompts.indirect}/${t.prompts.negative}` : <span class="muted">none</span>}</td>
                      <td>{rate('direct')}</td>
                      <td>{rate('indirect')}</td>
                      <td>{rate('negative')}</td>
                    </tr>
                    {open === id && (
                      <tr key={`${id}-detail`} class="detail-row">
                        <td colSpan={6}>
                          <OptimizeDetail server={server.server} tool={t} running={running} onChanged={state.reload} onReoptimize={() => setStarting({ server: server.server, tools: [t.tool] })} />
                        </td>
                      </tr>
                    )}
                  </>
                );
              })}
            </tbody>
          </table>
        </div>
      ))}
      {starting && data && (
        <OptimizeRunForm
          state={data}
          server={starting.server}
          tools={starting.tools}
          onClose={() => setStarting(undefined)}
          onStarted={(progress) => {
            setStarting(undefined);
            setRun(progress);
          }}
        />
      )}
    </section>
  );
}

function RunBox({ run, onCancel }: { run: RunProgress; onCancel(): void }) {
  const running = run.state === 'running';
  const eta = run.etaMs === undefined ? '' : ` · about ${Math.max(1, Math.round(run.etaMs / 1000))} s left`;
  return (
    <div class={`progress-box ${run.state}`} data-testid="optimize-run" data-state={run.state}>
      <div class="progress-head">
        <strong>{running ? `Optimizing: ${run.phase}` : `Run ${run.state}`}</strong>
        <span class="muted small">
          {run.server ? `${run.server}${run.tool ? `.${run.tool}` : ''}` : run.servers.join(', ')} · backend {run.backend}
          {run.candidate ? ` · candidate ${run.candidate.n}/${run.candidate.m}` : ''}
          {run.promptsTested ? ` · prompts tested d ${run.promptsTested.direct} / i ${run.promptsTested.indirect} / n ${run.promptsTested.negative}` : ''}
          {running ? eta : ''}
        </span>
        <span class="spacer" />
        {running && <button class="small danger" onClick={onCancel}>Cancel</button>}
      </div>
      {running && <progress max={run.total || 1} value={run.done} />}
      {run.error && <p class="error-text small">{run.error}</p>}
      {!running && run.outcomes.length > 0 && (
        <ul class="log small">
          {run.outcomes.map((o) => (
            <li key={`${o.server}.${o.tool}`}>
              <code>{o.server}.{o.tool}</code>:{' '}
              {o.skipped ? `skipped (${o.skipped})` : o.promoted ? `promoted ${o.promoted}` : o.passing ? `a candidate passes (${Math.round((o.overallRate ?? 0) * 100)}%), not promoted` : o.refused ? `kept canonical: ${o.refused}` : 'no passing candidate'}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
