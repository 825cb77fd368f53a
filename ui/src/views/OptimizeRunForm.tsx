// Owns the Optimize Tools dialog: which tools (a server's, disabled ones grayed out; or every server),
// candidates per tool, prompts per category, backend and the auto-promote threshold; Start sends
// POST /api/optimize/runs and hands the run's first progress back.
import { useState } from 'preact/hooks';
import { api } from '../api';
import { ErrorNote } from '../components/Bits';
import { Modal } from '../components/Overlay';
import type { OptimizeState, RunProgress } from '../types';

export function OptimizeRunForm({ state, server, tools, onClose, onStarted }: { state: OptimizeState; server?: string; tools?: string[]; onClose(): void; onStarted(run: RunProgress): void }) {
  const serverState = server ? state.servers.find((s) => s.server === server) : undefined;
  const [picked, setPicked] = useState<Set<string>>(() => new Set(tools ?? serverState?.tools.filter((t) => t.enabled && t.prompts.total > 0).map((t) => t.tool) ?? []));
  const [candidates, setCandidates] = useState(state.defaults.candidates);
  const [promptsPerCategory, setPromptsPerCategory] = useState<number | ''>('');
  const [backend, setBackend] = useState(state.defaults.backend);
  const [threshold, setThreshold] = useState(Math.round(state.defaults.autoPromoteThreshold * 100));
  const [error, setError] = useState<string | undefined>(undefined);
  const all = state.servers.reduce((n, s) => n + s.tools.filter((t) => t.enabled).length, 0);

  const start = async () => {
    setError(undefined);
    try {
      const body = {
        servers: server ? [server] : state.servers.map((s) => s.server),
        ...(server && { tools: [...picked] }),
        candidates,
        ...(promptsPerCategory !== '' && { promptsPerCategory }),
        backend,
        autoPromoteThreshold: threshold / 100,
      };
      const answer = await api<{ run: RunProgress }>('POST', '/api/optimize/runs', body);
      onStarted(answer.run);
    } catch (e) {
      setError((e as Error).message);
    }
  };
  const toggle = (name: string) => {
    const next = new Set(picked);
    if (next.has(name)) next.delete(name);
    else next.add(name);
    setPicked(next);
  };

  return (
    <Modal title={server ? `Optimize tools: ${server}` : 'Optimize all servers'} onClose={onClose}>
      {serverState ? (
        <ul class="checklist">
          {serverState.tools.map((t) => (
            <li key={t.tool} class={t.enabled ? '' : 'muted'}>
              <label class="check">
                <input type="checkbox" name={t.tool} disabled={!t.enabled} checked={picked.has(t.tool)} onChange={() => toggle(t.tool)} />
                <span>
                  <code>{t.tool}</code>
                  <span class="muted small block">{!t.enabled ? 'disabled on this server' : t.prompts.total ? `${t.prompts.total} golden prompts` : 'no golden prompts: it will be skipped'}</span>
                </span>
              </label>
            </li>
          ))}
        </ul>
      ) : (
        <p>
          Every enabled tool of {state.servers.length} servers ({all} tools); tools without golden prompts are skipped.
        </p>
      )}
      <div class="form grid-form">
        <label>
          Candidates per tool
          <input type="number" min={1} max={20} value={candidates} onInput={(e) => setCandidates(Number(e.currentTarget.value))} />
        </label>
        <label>
          Prompts per category
          <input type="number" min={1} max={100} placeholder="all" value={promptsPerCategory} onInput={(e) => setPromptsPerCategory(e.currentTarget.value === '' ? '' : Number(e.currentTarget.value))} />
        </label>
        <label>
          Backend
          <select value={backend} onChange={(e) => setBackend(e.currentTarget.value)}>
            {state.backends.map((b) => <option key={b} value={b}>{b}</option>)}
          </select>
        </label>
        <label>
          Auto-promote at (overall success, %)
          <input type="number" min={0} max={100} value={threshold} onInput={(e) => setThreshold(Number(e.currentTarget.value))} />
        </label>
      </div>
      <p class="muted small">A candidate is promoted only when the statistical promotion rule passes it and its overall success rate reaches the threshold.</p>
      <ErrorNote message={error} />
      <footer class="overlay-foot">
        <button onClick={onClose}>Cancel</button>
        <button class="primary" disabled={server !== undefined && picked.size === 0} onClick={start}>Start</button>
      </footer>
    </Modal>
  );
}
