// Owns the Add Server form: a stdio command with args and env, or an HTTP URL with headers. ↑↓/Tab move between
// fields, ←→ or space on Type switches stdio/http, Enter adds (the gateway validates it, writes it to the config
// file and starts it), Esc cancels. Once added, Configure Tools opens for the new server.
import { Box, Text } from 'ink';
import { useKeys } from '../hooks.js';
import { useState } from 'react';
import type { ModalProps } from './modal-props.js';
import { Modal } from '../components/modal.js';

type Field = 'key' | 'type' | 'command' | 'args' | 'env' | 'url' | 'headers';
const STDIO: Field[] = ['key', 'type', 'command', 'args', 'env'];
const HTTP: Field[] = ['key', 'type', 'url', 'headers'];
const LABELS: Record<Field, string> = { key: 'Name', type: 'Type', command: 'Command', args: 'Args', env: 'Env', url: 'URL', headers: 'Headers' };
const HINTS: Partial<Record<Field, string>> = { args: 'space-separated', env: 'KEY=value, comma-separated', headers: 'Name: value; semicolon-separated' };

/** "A=1, B=2" or "Name: v; Other: w" into a record (empty entries skipped). */
export function pairs(text: string, separator: string, assign: string): Record<string, string> | undefined {
  const entries = text.split(separator).map((p) => p.trim()).filter(Boolean).map((p) => {
    const at = p.indexOf(assign);
    return at < 0 ? [p, ''] : [p.slice(0, at).trim(), p.slice(at + 1).trim()];
  });
  return entries.length ? Object.fromEntries(entries) : undefined;
}

export function AddServerModal({ client, close, open, notify }: ModalProps) {
  const [values, setValues] = useState<Record<Field, string>>({ key: '', type: 'stdio', command: '', args: '', env: '', url: '', headers: '' });
  const [focus, setFocus] = useState(0);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const fields = values.type === 'stdio' ? STDIO : HTTP;
  const field = fields[Math.min(focus, fields.length - 1)];

  const submit = () => {
    const key = values.key.trim();
    const entry =
      values.type === 'stdio'
        ? { key, command: values.command.trim(), ...(values.args.trim() && { args: values.args.trim().split(/\s+/) }), ...(pairs(values.env, ',', '=') && { env: pairs(values.env, ',', '=') }) }
        : { key, url: values.url.trim(), ...(pairs(values.headers, ';', ':') && { headers: pairs(values.headers, ';', ':') }) };
    setBusy(true);
    client.addServer(entry).then(
      () => {
        notify(`Added ${key}: written to the config file and started`);
        open({ kind: 'tools', server: key, firstTime: true });
      },
      (e: Error) => {
        setBusy(false);
        setError(e.message);
      },
    );
  };

  useKeys((input, key) => {
    if (busy) return;
    if (key.escape) return close();
    if (key.return) return submit();
    if (key.upArrow || (key.tab && key.shift)) return setFocus((f) => (f + fields.length - 1) % fields.length);
    if (key.downArrow || key.tab) return setFocus((f) => (f + 1) % fields.length);
    if (field === 'type') {
      if (key.leftArrow || key.rightArrow || input === ' ') setValues((v) => ({ ...v, type: v.type === 'stdio' ? 'http' : 'stdio' }));
      return;
    }
    if (key.backspace || key.delete) return setValues((v) => ({ ...v, [field]: v[field].slice(0, -1) }));
    if (input && !key.ctrl && !key.meta) setValues((v) => ({ ...v, [field]: v[field] + input }));
  });

  return (
    <Modal title="Add Server" keys="↑↓/Tab field  ←→ type  Enter add  Esc cancel">
      {fields.map((f) => (
        <Box key={f}>
          <Text color={f === field ? 'cyan' : undefined}>{`${f === field ? '›' : ' '} ${LABELS[f].padEnd(8)} `}</Text>
          {f === 'type' ? (
            <Text>{values.type === 'stdio' ? '(•) stdio  ( ) http' : '( ) stdio  (•) http'}</Text>
          ) : (
            <Text>
              {values[f]}
              {f === field ? '▏' : ''}
              <Text dimColor>{!values[f] && HINTS[f] ? ` ${HINTS[f]}` : ''}</Text>
            </Text>
          )}
        </Box>
      ))}
      {busy && <Text color="yellow">Adding…</Text>}
      {error && <Text color="red">{error}</Text>}
    </Modal>
  );
}
