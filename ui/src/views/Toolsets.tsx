// Owns the Toolsets view: saved toolsets (tools, what is missing now, the fixed endpoint URL to copy),
// equipping one as the gateway's default, deleting, and creating one from a tool picker.
import { useMemo, useState } from 'preact/hooks';
import { api, get } from '../api';
import { useResource } from '../hooks';
import { Badge, CopyButton, Empty, ErrorNote } from '../components/Bits';
import { Modal } from '../components/Overlay';
import type { ToolRow, ToolsetView } from '../types';

export function ToolsetsView() {
  const toolsets = useResource(() => get<{ equipped: string | null; toolsets: ToolsetView[] }>('/api/toolsets'), [], 15_000);
  const [creating, setCreating] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  const act = async (method: 'POST' | 'DELETE', path: string) => {
    setError(undefined);
    try {
      await api(method, path);
    } catch (e) {
      setError((e as Error).message);
    }
    await toolsets.reload();
  };

  return (
    <section>
      <div class="view-head">
        <h1>Toolsets</h1>
        <span class="muted">{toolsets.data ? `default: ${toolsets.data.equipped ?? 'none equipped'}` : ''}</span>
        <span class="spacer" />
        <button class="primary" onClick={() => setCreating(true)}>New toolset</button>
      </div>
      <p class="muted small">
        Toolset-mode sessions on <code>/mcp</code> that have not equipped their own follow the default and are told when it changes. Clients that ignore
        list_changed (Claude Code) use a toolset's fixed endpoint instead.
      </p>
      <ErrorNote message={toolsets.error ?? error} />
      {toolsets.data && toolsets.data.toolsets.length === 0 && <Empty>No toolsets yet. Create one from the tools you pick.</Empty>}
      <div class="cards">
        {toolsets.data?.toolsets.map((t) => {
          const url = `${location.origin}${t.endpoint}`;
          return (
            <article class={`card ${t.equipped ? 'equipped' : ''}`} key={t.name} data-toolset={t.name}>
              <header>
                <h2>{t.name}</h2>
                {t.equipped && <Badge value="ok" label="equipped" />}
              </header>
              {t.description && <p>{t.description}</p>}
              <ul class="tags">
                {t.tools.map((ref) => <li key={`${ref.server}.${ref.tool}`}><code>{ref.server}.{ref.tool}</code></li>)}
              </ul>
              {t.missing.length > 0 && (
                <p class="error-text small">Not served now: {t.missing.map((m) => `${m.server}.${m.tool} (${m.reason})`).join('; ')}</p>
              )}
              <div class="endpoint">
                <code title="Fixed endpoint serving exactly this toolset">{url}</code>
                <CopyButton text={url} label="Copy URL" />
              </div>
              <footer class="card-actions">
                {t.equipped ? (
                  <button onClick={() => act('POST', `/api/toolsets/${encodeURIComponent(t.name)}/unequip`)}>Unequip</button>
                ) : (
                  <button class="primary" onClick={() => act('POST', `/api/toolsets/${encodeURIComponent(t.name)}/equip`)}>Equip</button>
                )}
                <button class="danger" onClick={() => confirm(`Delete toolset "${t.name}"?`) && act('DELETE', `/api/toolsets/${encodeURIComponent(t.name)}`)}>Delete</button>
              </footer>
            </article>
          );
        })}
      </div>
      {creating && (
        <CreateToolset
          onClose={() => setCreating(false)}
          onCreated={async () => {
            setCreating(false);
            await toolsets.reload();
          }}
        />
      )}
    </section>
  );
}

function CreateToolset({ onClose, onCreated }: { onClose(): void; onCreated(): Promise<void> }) {
  const tools = useResource(() => get<{ tools: ToolRow[] }>('/api/tools'));
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [filter, setFilter] = useState('');
  const [picked, setPicked] = useState<Set<string>>(new Set());
  const [error, setError] = useState<string | undefined>(undefined);
  const candidates = useMemo(() => {
    const text = filter.toLowerCase();
    return (tools.data?.tools ?? []).filter((t) => t.enabled && (!text || `${t.server}.${t.name} ${t.description}`.toLowerCase().includes(text)));
  }, [tools.data, filter]);
  const toggle = (key: string) => {
    const next = new Set(picked);
    if (next.has(key)) next.delete(key);
    else next.add(key);
    setPicked(next);
  };
  const create = async () => {
    setError(undefined);
    const refs = (tools.data?.tools ?? []).filter((t) => picked.has(`${t.server}\u0000${t.name}`)).map((t) => ({ server: t.server, tool: t.name }));
    try {
      await api('POST', '/api/toolsets', { name: name.trim(), ...(description.trim() && { description: description.trim() }), tools: refs });
      await onCreated();
    } catch (e) {
      setError((e as Error).message);
    }
  };
  return (
    <Modal title="New toolset" onClose={onClose}>
      <div class="form">
        <label>
          Name
          <input name="toolset-name" value={name} onInput={(e) => setName(e.currentTarget.value)} placeholder="dev-essentials" />
        </label>
        <label>
          Description
          <input name="toolset-description" value={description} onInput={(e) => setDescription(e.currentTarget.value)} placeholder="optional" />
        </label>
        <label>
          Tools <span class="muted small">({picked.size} picked)</span>
          <input type="search" value={filter} onInput={(e) => setFilter(e.currentTarget.value)} placeholder="filter tools…" />
        </label>
      </div>
      <ErrorNote message={tools.error} />
      <ul class="checklist">
        {candidates.map((t) => {
          const key = `${t.server}\u0000${t.name}`;
          return (
            <li key={key}>
              <label class="check">
                <input type="checkbox" name={`${t.server}.${t.name}`} checked={picked.has(key)} onChange={() => toggle(key)} />
                <span>
                  <code>{t.server}.{t.name}</code>
                  <span class="muted small block">{t.description.slice(0, 140)}</span>
                </span>
              </label>
            </li>
          );
        })}
      </ul>
      <ErrorNote message={error} />
      <footer class="overlay-foot">
        <button onClick={onClose}>Cancel</button>
        <button class="primary" disabled={!name.trim() || picked.size === 0} onClick={create}>Create</button>
      </footer>
    </Modal>
  );
}
