// Owns the Activity view: the gateway's live calls (and the server requests they caused) from the
// /api/activity event stream, newest first, filtered by server, tool and status; pause and clear.
import { useEffect, useMemo, useState } from 'preact/hooks';
import { followEvents } from '../sse';
import { clock, ms } from '../format';
import { Badge, Empty } from '../components/Bits';
import type { Activity } from '../types';

const KEPT = 500;
const STATUSES = ['ok', 'tool_error', 'protocol_error', 'timeout', 'server_down', 'cancelled'];

export function ActivityView() {
  const [events, setEvents] = useState<Activity[]>([]);
  const [status, setStatus] = useState<{ state: string; detail?: string }>({ state: 'connecting' });
  const [paused, setPaused] = useState(false);
  const [filter, setFilter] = useState({ server: '', tool: '', status: '' });

  useEffect(() => {
    if (paused) return;
    setEvents([]); // the stream replays the recent past on connect
    return followEvents('/api/activity?recent=200', {
      onEvent: (_type, data) => setEvents((list) => [data as Activity, ...list].slice(0, KEPT)),
      onStatus: (state, detail) => setStatus({ state, detail }),
    });
  }, [paused]);

  const shown = useMemo(
    () =>
      events.filter(
        (e) =>
          (!filter.server || e.server.includes(filter.server)) &&
          (!filter.tool || (e.kind === 'call' ? e.tool : e.method).includes(filter.tool)) &&
          (!filter.status || (e.kind === 'call' && e.status === filter.status)),
      ),
    [events, filter],
  );

  return (
    <section>
      <div class="view-head">
        <h1>Activity</h1>
        <span class={`live ${paused ? 'paused' : status.state}`} data-testid="stream-state">{paused ? 'paused' : status.state === 'open' ? 'live' : status.state}</span>
        {status.detail && status.state !== 'open' && <span class="muted small">{status.detail}</span>}
      </div>
      <div class="toolbar">
        <input placeholder="server" value={filter.server} onInput={(e) => setFilter({ ...filter, server: e.currentTarget.value })} aria-label="Filter by server" />
        <input placeholder="tool" value={filter.tool} onInput={(e) => setFilter({ ...filter, tool: e.currentTarget.value })} aria-label="Filter by tool" />
        <select value={filter.status} onChange={(e) => setFilter({ ...filter, status: e.currentTarget.value })} aria-label="Filter by status">
          <option value="">any status</option>
          {STATUSES.map((s) => <option key={s} value={s}>{s}</option>)}
        </select>
        <span class="spacer" />
        <button onClick={() => setPaused(!paused)}>{paused ? 'Resume' : 'Pause'}</button>
        <button onClick={() => setEvents([])}>Clear</button>
      </div>
      {shown.length === 0 ? (
        <Empty>{events.length ? 'No event matches the filters.' : 'No calls yet. Calls made by any client appear here as they finish.'}</Empty>
      ) : (
        <table class="grid compact" data-testid="activity-table">
          <thead>
            <tr>
              <th>Time</th>
              <th>Server</th>
              <th>Tool / request</th>
              <th>Status</th>
              <th class="num">Latency</th>
              <th>Session</th>
              <th>Detail</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((e, i) => (
              <tr key={`${e.at}-${i}`} data-kind={e.kind}>
                <td class="mono">{clock(e.at)}</td>
                <td>{e.server}</td>
                <td><code>{e.kind === 'call' ? e.tool : e.method}</code></td>
                <td>{e.kind === 'call' ? <Badge value={e.status} /> : <Badge value="connecting" label="server request" />}</td>
                <td class="num">{e.kind === 'call' ? ms(e.durationMs) : ''}</td>
                <td class="mono small" title={e.session ?? ''}>{e.session ? e.session.slice(0, 8) : '–'}</td>
                <td class="error-cell" title={e.kind === 'call' ? (e.error ?? '') : ''}>{e.kind === 'call' ? e.error ?? '' : ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
