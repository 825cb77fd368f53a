// Owns the Optimization view: per server how many tools carry an optimized description, per tool the
// canonical vs the promoted text, and the live progress and decisions of optimization runs from
// /api/optimize/events.
import { useEffect, useMemo, useState } from 'preact/hooks';
import { get } from '../api';
import { useResource } from '../hooks';
import { followEvents } from '../sse';
import { clock } from '../format';
import { Badge, Empty, ErrorNote } from '../components/Bits';
import type { ToolRow } from '../types';

interface PhaseEvent {
  server: string;
  tool?: string;
  phase: string;
  done: number;
  total: number;
}
interface DecisionEvent {
  server: string;
  tool: string;
  promoted: boolean;
  forced: boolean;
  reason?: string;
}

export function OptimizationView() {
  const tools = useResource(() => get<{ tools: ToolRow[] }>('/api/tools'), [], 15_000);
  const [phase, setPhase] = useState<PhaseEvent | undefined>(undefined);
  const [decisions, setDecisions] = useState<Array<DecisionEvent & { at: number }>>([]);
  const [stream, setStream] = useState<{ state: string; detail?: string }>({ state: 'connecting' });
  const [open, setOpen] = useState<string | undefined>(undefined);

  useEffect(
    () =>
      followEvents('/api/optimize/events', {
        onEvent: (type, data) => {
          if (type === 'phase') setPhase(data as PhaseEvent);
          if (type === 'decision') {
            setDecisions((list) => [{ ...(data as DecisionEvent), at: Date.now() }, ...list].slice(0, 100));
            void tools.reload();
          }
        },
        onStatus: (state, detail) => setStream({ state, detail }),
      }),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [],
  );

  const servers = useMemo(() => {
    const map = new Map<string, ToolRow[]>();
    for (const t of tools.data?.tools ?? []) if (t.enabled) map.set(t.server, [...(map.get(t.server) ?? []), t]);
    return [...map.entries()];
  }, [tools.data]);

  return (
    <section>
      <div class="view-head">
        <h1>Optimization</h1>
        <span class={`live ${stream.state}`}>{stream.state === 'open' ? 'live' : stream.state === 'closed' ? 'not enabled' : stream.state}</span>
      </div>
      {stream.state === 'closed' && <p class="muted small">{stream.detail}</p>}
      {phase && (
        <div class="progress-box" data-testid="optimize-progress">
          <div>
            <strong>{phase.phase}</strong> {phase.server}
            {phase.tool ? `.${phase.tool}` : ''} — {phase.done}/{phase.total}
          </div>
          <progress max={phase.total || 1} value={phase.done} />
        </div>
      )}
      <ErrorNote message={tools.error} />
      {tools.data && servers.length === 0 && <Empty>No tools listed yet.</Empty>}
      {servers.map(([server, list]) => {
        const optimized = list.filter((t) => t.promoted).length;
        return (
          <div class="opt-server" key={server} data-server={server}>
            <h2>
              {server} <span class="dots" aria-hidden="true">{list.map((t) => (t.promoted ? '●' : '○')).join('')}</span>{' '}
              <span class="muted small">{optimized}/{list.length} tools optimized</span>
            </h2>
            <table class="grid compact">
              <tbody>
                {list.map((t) => (
                  <>
                    <tr key={t.name} class="clickable" onClick={() => setOpen(open === `${server}.${t.name}` ? undefined : `${server}.${t.name}`)}>
                      <td><code>{t.name}</code></td>
                      <td>{t.promoted ? <Badge value="ok" label="optimized" /> : <span class="muted">Not optimized</span>}</td>
                      <td class="num muted small">{t.canonicalDescription.length} → {t.description.length} chars</td>
                    </tr>
                    {open === `${server}.${t.name}` && (
                      <tr key={`${t.name}-detail`}>
                        <td colSpan={3}>
                          <div class="compare">
                            <div>
                              <h4>Canonical <span class="muted small">{t.canonicalDescription.length} chars</span></h4>
                              <pre class="text">{t.canonicalDescription}</pre>
                            </div>
                            <div>
                              <h4>{t.promoted ? 'Promoted' : 'Current'} <span class="muted small">{t.description.length} chars</span></h4>
                              <pre class="text">{t.description}</pre>
                            </div>
                          </div>
                        </td>
                      </tr>
                    )}
                  </>
                ))}
              </tbody>
            </table>
          </div>
        );
      })}
      {decisions.length > 0 && (
        <>
          <h2>Decisions</h2>
          <ul class="log">
            {decisions.map((d, i) => (
              <li key={i}>
                <span class="mono">{clock(d.at)}</span> {d.server}.{d.tool}: {d.promoted ? <Badge value="ok" label={d.forced ? 'promoted (forced)' : 'promoted'} /> : <Badge value="failed" label="kept canonical" />} {d.reason}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
