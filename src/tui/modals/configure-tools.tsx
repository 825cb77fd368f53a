// Owns Configure Tools: a checklist of every tool the server lists (with its description), pre-checked with what
// is enabled now; space toggles, `a` Select All (or none), Enter Save (applied live and written into the config
// file), Esc Cancel. Also opened when a newly added server's tools are first discovered.
import { Box, Text } from 'ink';
import { useKeys } from '../hooks.js';
import { useEffect, useState } from 'react';
import type { ModalProps } from './modal-props.js';
import type { ServerTools } from '../schemas.js';
import { Modal } from '../components/modal.js';
import { cut } from '../components/bars.js';

export function ConfigureToolsModal({ client, close, notify, server, firstTime, width, height }: ModalProps & { server: string; firstTime: boolean }) {
  const [tools, setTools] = useState<ServerTools['tools']>();
  const [checked, setChecked] = useState<Set<string>>(new Set());
  const [cursor, setCursor] = useState(0);
  const [error, setError] = useState<string>();
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    let live = true;
    const load = (attempt: number) =>
      client.serverTools(server).then(
        (answer) => {
          if (!live) return;
          setTools(answer.tools);
          setChecked(new Set(answer.tools.filter((t) => t.enabled).map((t) => t.name)));
        },
        (e: Error) => {
          // A server added a moment ago may still be starting.
          if (live && attempt < 10) setTimeout(() => void load(attempt + 1), 1000);
          else if (live) setError(e.message);
        },
      );
    void load(0);
    return () => {
      live = false;
    };
  }, [client, server]);

  const save = () => {
    if (!tools) return;
    setSaving(true);
    client.setTools(server, tools.filter((t) => checked.has(t.name)).map((t) => t.name)).then(
      () => {
        notify(`${server}: ${checked.size}/${tools.length} tools enabled (applied and saved to the config file)`);
        close();
      },
      (e: Error) => {
        setSaving(false);
        setError(e.message);
      },
    );
  };

  useKeys((input, key) => {
    if (saving) return;
    if (key.escape) return close();
    if (!tools) return;
    if (key.upArrow) return setCursor((c) => Math.max(0, c - 1));
    if (key.downArrow) return setCursor((c) => Math.min(tools.length - 1, c + 1));
    if (input === ' ') {
      const name = tools[cursor]?.name;
      if (name) setChecked((s) => (s.has(name) ? new Set([...s].filter((n) => n !== name)) : new Set([...s, name])));
      return;
    }
    if (input === 'a') return setChecked((s) => (s.size === tools.length ? new Set() : new Set(tools.map((t) => t.name))));
    if (key.return) return save();
  });

  const visible = Math.max(3, height - 7);
  const start = Math.max(0, Math.min(cursor - Math.floor(visible / 2), (tools?.length ?? 0) - visible));
  return (
    <Modal title={`Configure Tools: ${server}${firstTime ? ' (new server)' : ''}`} keys="↑↓ move  space toggle  a Select All  Enter Save  Esc Cancel" width={width}>
      {!tools && !error && <Text dimColor>Listing the server's tools…</Text>}
      {error && <Text color="red">{error}</Text>}
      {tools?.slice(start, start + visible).map((t, i) => (
        <Text key={t.name} color={start + i === cursor ? 'cyan' : undefined} wrap="truncate">
          {`${start + i === cursor ? '›' : ' '} [${checked.has(t.name) ? 'x' : ' '}] ${cut(t.name, 24).padEnd(25)}`}
          <Text dimColor>{cut(t.description, Math.max(5, width - 36))}</Text>
        </Text>
      ))}
      {tools && (
        <Box>
          <Text bold>{`Selected: ${checked.size}/${tools.length} tools`}</Text>
          <Text>{'   [a] Select All   [Enter] Save   [Esc] Cancel'}</Text>
        </Box>
      )}
      {saving && <Text color="yellow">Saving…</Text>}
    </Modal>
  );
}
