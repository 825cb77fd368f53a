// Owns the modals that only inform: Help (every key), Connect (how to point MCP clients at this gateway), and
// Export (the optimization report written to a Markdown file in the current folder).
import { Text } from 'ink';
import { useKeys } from '../hooks.js';
import { useEffect, useState } from 'react';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ModalProps } from './modal-props.js';
import { Modal } from '../components/modal.js';
import { ACTIONS } from '../actions.js';

export function HelpModal({ close, width }: ModalProps) {
  useKeys((_input, key) => {
    if (key.escape || key.return) close();
  });
  return (
    <Modal title="Help" keys="Esc close" width={width}>
      {ACTIONS.map((a) => (
        <Text key={a.id}>{`${a.key.padEnd(8)}${a.label}`}</Text>
      ))}
      <Text>{'Ctrl+K  Command menu     Esc  Back / close'}</Text>
      <Text>{'Servers: r restart, t Configure Tools.  Activity: f filter (server:x tool:y status:error).'}</Text>
      <Text>{'Optimization: o Optimize Tools, d Detail, p Golden Prompts.'}</Text>
    </Modal>
  );
}

export function ConnectModal({ client, close, width }: ModalProps) {
  useKeys((_input, key) => {
    if (key.escape || key.return) close();
  });
  const mcp = `${client.url}/mcp`;
  return (
    <Modal title="Connect MCP clients" keys="Esc close" width={width}>
      <Text>{`Every server through one endpoint: ${mcp}`}</Text>
      <Text>{`Claude Code:  claude mcp add --transport http sb ${mcp}`}</Text>
      <Text>{`Cursor:       ~/.cursor/mcp.json: {"mcpServers": {"sb": {"url": "${mcp}"}}}`}</Text>
      <Text>{'stdio client: command "switchboard", args ["connect"] (relays to the daemon)'}</Text>
      <Text>{`One server:   ${client.url}/servers/<key>/mcp  · meta-tools: ${mcp}?mode=meta`}</Text>
      <Text>{'Install into a client: switchboard install --client claude-code|cursor|vscode'}</Text>
    </Modal>
  );
}

export function ExportModal({ client, close, notify, server, width, exportDir }: ModalProps & { server?: string }) {
  const [state, setState] = useState<string>('Exporting…');
  useEffect(() => {
    let live = true;
    const file = path.resolve(exportDir, `switchboard-optimization${server ? `-${server}` : ''}.md`);
    client
      .report(server)
      .then((text) => writeFile(file, text))
      .then(
        () => {
          if (!live) return;
          notify(`Report written to ${file}`);
          setState(`Report written to ${file}`);
        },
        (e: Error) => live && setState(`Export failed: ${e.message}`),
      );
    return () => {
      live = false;
    };
  }, [client, server, notify, exportDir]);
  useKeys((_input, key) => {
    if (key.escape || key.return) close();
  });
  return (
    <Modal title="Export Report" keys="Esc close" width={width}>
      <Text>{state}</Text>
    </Modal>
  );
}
