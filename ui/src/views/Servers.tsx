// Owns the Servers view: every configured server with its state, tool count, uptime, restarts and last
// error; restarting one; the Configure Tools dialog (a checklist of the server's discovered tools; saving
// applies live through PUT /api/servers/:key/tools, optionally written to the config file); Add Server.
import { useEffect, useMemo, useState } from 'preact/hooks';
import { api, get } from '../api';
import { useResource } from '../hooks';
import { duration } from '../format';
import { Badge, Empty, ErrorNote } from '../components/Bits';
import { Modal } from '../components/Overlay';
import { AddServer } from './AddServer';
import type { ServerStatus, ToolRow } from '../types';

interface Props {
  servers: ServerStatus[] | undefined;
  serversError: string | undefined;
  reloadServers(): Promise<void>;
}

export function ServersView({ servers, serversError, reloadServers }: Props) {
  const tools = useResource(() => get<{ tools: ToolRow[]; pending: string[] }>('/api/tools'), [], 10_000);
  const [configuring, setConfiguring] = useState<string | undefined>(undefined);
  const [adding, setAdding] = useState(false);
  /** A server just added: Configure Tools opens once its tools are discovered. */
  const [awaiting, setAwaiting] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState<string | undefined>(undefined);
  const [actionError, setActionError] = useState<string | undefined>(undefined);
  const restart = async (key: string) => {
    setBusy(key);
    setActionError(undefined);
    try {
      await api('POST', `/api/servers/${encodeURIComponent(key)}/restart`);
    } catch (e) {
      setActionError(`Restart ${key}: ${(e as Error).message}`);
    } finally {
      setBusy(undefined);
      await Promise.all([reloadServers(), tools.reload()]);
    }
  };
  const byServer = useMemo(() => {
    const map = new Map<string, ToolRow[]>();
    for (const t of tools.data?.tools ?? []) map.set(t.server, [...(map.get(t.server) ?? []), t]);
    return map;
  }, [tools.data]);
  useEffect(() => {
    if (!awaiting) return;
    if (byServer.get(awaiting)?.length) {
      setConfiguring(awaiting);
      setAwaiting(undefined);
      return;
    }
    const timer = setTimeout(() => void tools.reload(), 1000);
    return () => clearTimeout(timer);
  }, [awaiting, byServer]);

  return (
    <section>
      <div class="view-head">
        <h1>Servers</h1>
        <span class="muted">{servers ? `${servers.length} configured` : ''}</span>
        <span class="spacer" />
        <button class="primary" onClick={() => setAdding(true)}>Add server</button>
      </div>
      <ErrorNote message={serversError ?? actionError} />
      {servers && servers.length === 0 && <Empty>No servers are configured. Add one to the config file's mcpServers.</Empty>}
      {servers && servers.length > 0 && (
        <table class="grid" data-testid="servers-table">
          <thead>
            <tr>
              <th>Server</th>
              <th>State</th>
              <th class="num">Tools</th>
              <th>Uptime</th>
              <th class="num">Restarts</th>
              <th>Last error</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {servers.map((server) => {
              const list = byServer.get(server.key) ?? [];
              const enabled = list.filter((t) => t.enabled).length;
              const live = server.connections.find((c) => c.state === 'connected') ?? server.connections[0];
              const restarts = server.connections.reduce((n, c) => n + c.restarts, 0);
              const lastError = server.error ?? server.connections.find((c) => c.lastError)?.lastError ?? null;
              const pending = tools.data?.pending.includes(server.key);
              return (
                <tr key={server.key} data-server={server.key}>
                  <td>
                    <strong>{server.key}</strong>
                    <div class="muted small">
                      {server.transport}
                      {live?.serverInfo ? ` · ${live.serverInfo.name} ${live.serverInfo.version}` : ''}
                      {live?.pid ? ` · pid ${live.pid}` : ''}
                    </div>
                  </td>
                  <td><Badge value={server.state} /></td>
                  <td class="num" data-testid="tool-count">{pending ? 'listing…' : list.length ? `${enabled}/${list.length}` : '–'}</td>
                  <td>{live?.state === 'connected' ? duration(live.connectedAt) : '–'}</td>
                  <td class="num">{restarts}</td>
                  <td class="error-cell" title={lastError ?? ''}>{lastError ?? <span class="muted">none</span>}</td>
                  <td class="actions">
                    <button disabled={busy === server.key} onClick={() => restart(server.key)}>{busy === server.key ? 'Restarting…' : 'Restart'}</button>{' '}
                    <button disabled={!list.length} onClick={() => setConfiguring(server.key)}>Configure tools</button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {adding && (
        <AddServer
          onClose={() => setAdding(false)}
          onAdded={async (key) => {
            setAdding(false);
            setAwaiting(key);
            await Promise.all([reloadServers(), tools.reload()]);
          }}
        />
      )}
      {configuring && (
        <ConfigureTools
          server={configuring}
          tools={byServer.get(configuring) ?? []}
          onClose={() => setConfiguring(undefined)}
          onSaved={async () => {
            setConfiguring(undefined);
            await Promise.all([reloadServers(), tools.reload()]);
          }}
        />
      )}
    </section>
  );
}

function ConfigureTools({ server, tools, onClose, onSaved }: { server: string; tools: ToolRow[]; onClose(): void; onSaved(): Promise<void> }) {
  const [checked, setChecked] = useState(() => new Set(tools.filter((t) => t.enabled).map((t) => t.name)));
  const [error, setError] = useState<string | undefined>(undefined);
  const [saving, setSaving] = useState(false);
  const [persist, setPersist] = useState(false);
  const toggle = (name: string) => {
    const next = new Set(checked);
    if (next.has(name)) next.delete(name);
    else next.add(name);
    setChecked(next);
  };
  const all = checked.size === tools.length;
  const save = async () => {
    setSaving(true);
    setError(undefined);
    try {
      // Every tool checked clears the selection, so tools the server adds later show up too.
      const selection = all ? {} : { enabledTools: tools.filter((t) => checked.has(t.name)).map((t) => t.name) };
      await api('PUT', `/api/servers/${encodeURIComponent(server)}/tools`, { ...selection, ...(persist && { persist: true }) });
      await onSaved();
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal title={`Configure tools: ${server}`} onClose={onClose}>
      <div class="toolbar">
        <label class="check">
          <input type="checkbox" checked={all} onChange={() => setChecked(all ? new Set() : new Set(tools.map((t) => t.name)))} />
          Select all
        </label>
        <span class="muted" data-testid="selected-count">Selected: {checked.size}/{tools.length} tools</span>
      </div>
      <ul class="checklist">
        {tools.map((tool) => (
          <li key={tool.name}>
            <label class="check">
              <input type="checkbox" name={tool.name} checked={checked.has(tool.name)} onChange={() => toggle(tool.name)} />
              <span>
                <code>{tool.name}</code>
                <span class="muted small block">{tool.description || 'no description'}</span>
              </span>
            </label>
          </li>
        ))}
      </ul>
      <ErrorNote message={error} />
      <label class="check small">
        <input type="checkbox" name="persist" checked={persist} onChange={() => setPersist(!persist)} />
        <span>Write the selection into the config file (enabledTools), so it survives a restart of the gateway</span>
      </label>
      <p class="muted small">Saving applies at once: connected clients are told their tool list changed.{persist ? '' : ' Without writing it, it lasts until the gateway stops.'}</p>
      <footer class="overlay-foot">
        <button onClick={onClose}>Cancel</button>
        <button class="primary" disabled={saving || checked.size === 0} onClick={save}>{saving ? 'Saving…' : 'Save'}</button>
      </footer>
    </Modal>
  );
}
