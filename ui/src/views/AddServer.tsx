// Owns the Add Server dialog: a stdio server (command, arguments, environment) or an HTTP one (URL,
// headers), sent to POST /api/servers, which validates it like the config file, writes it there and starts it.
import { useState } from 'preact/hooks';
import { api } from '../api';
import { ErrorNote } from '../components/Bits';
import { Modal } from '../components/Overlay';

/** "A=1" lines (or "Name: value" for headers) into an object; blank lines are skipped. */
function pairs(text: string, separator: '=' | ':'): Record<string, string> | string {
  const result: Record<string, string> = {};
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line) continue;
    const at = line.indexOf(separator);
    if (at <= 0) return `"${line}" is not NAME${separator}value`;
    result[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return result;
}

/** Arguments one per line, so that arguments with spaces need no quoting. */
function lines(text: string): string[] {
  return text.split('\n').map((l) => l.trim()).filter(Boolean);
}

export function AddServer({ onClose, onAdded }: { onClose(): void; onAdded(key: string): Promise<void> }) {
  const [kind, setKind] = useState<'stdio' | 'http'>('stdio');
  const [key, setKey] = useState('');
  const [command, setCommand] = useState('');
  const [args, setArgs] = useState('');
  const [env, setEnv] = useState('');
  const [url, setUrl] = useState('');
  const [headers, setHeaders] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);
  const [saving, setSaving] = useState(false);

  const submit = async (e: Event) => {
    e.preventDefault();
    setError(undefined);
    const map = kind === 'stdio' ? pairs(env, '=') : pairs(headers, ':');
    if (typeof map === 'string') return setError(map);
    const body =
      kind === 'stdio'
        ? { key: key.trim(), command: command.trim(), ...(lines(args).length && { args: lines(args) }), ...(Object.keys(map).length && { env: map }) }
        : { key: key.trim(), url: url.trim(), ...(Object.keys(map).length && { headers: map }) };
    setSaving(true);
    try {
      await api('POST', '/api/servers', body);
      await onAdded(body.key);
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal title="Add server" onClose={onClose}>
      <form class="form" onSubmit={submit}>
        <div class="segmented" role="group" aria-label="Transport">
          <button type="button" class={kind === 'stdio' ? 'active' : ''} onClick={() => setKind('stdio')}>stdio command</button>
          <button type="button" class={kind === 'http' ? 'active' : ''} onClick={() => setKind('http')}>HTTP URL</button>
        </div>
        <label>
          Key
          <input name="server-key" value={key} onInput={(e) => setKey(e.currentTarget.value)} placeholder="github" />
        </label>
        {kind === 'stdio' ? (
          <>
            <label>
              Command
              <input name="server-command" value={command} onInput={(e) => setCommand(e.currentTarget.value)} placeholder="npx" />
            </label>
            <label>
              Arguments <span class="muted small">one per line</span>
              <textarea name="server-args" rows={3} value={args} onInput={(e) => setArgs(e.currentTarget.value)} placeholder={'-y\n@modelcontextprotocol/server-memory'} />
            </label>
            <label>
              Environment <span class="muted small">NAME=value per line; ${'{'}VAR{'}'} is expanded by the gateway</span>
              <textarea name="server-env" rows={2} value={env} onInput={(e) => setEnv(e.currentTarget.value)} />
            </label>
          </>
        ) : (
          <>
            <label>
              URL
              <input name="server-url" value={url} onInput={(e) => setUrl(e.currentTarget.value)} placeholder="https://example.com/mcp" />
            </label>
            <label>
              Headers <span class="muted small">Name: value per line</span>
              <textarea name="server-headers" rows={2} value={headers} onInput={(e) => setHeaders(e.currentTarget.value)} placeholder="Authorization: Bearer ${TOKEN}" />
            </label>
          </>
        )}
        <p class="muted small">The server is checked like an entry of the config file, written into it, and started at once; its tools open in Configure Tools when they are discovered.</p>
        <ErrorNote message={error} />
        <footer class="overlay-foot">
          <button type="button" onClick={onClose}>Cancel</button>
          <button type="submit" class="primary" disabled={saving || !key.trim() || (kind === 'stdio' ? !command.trim() : !url.trim())}>{saving ? 'Adding…' : 'Add server'}</button>
        </footer>
      </form>
    </Modal>
  );
}
