// Owns the Servers view: every configured server with its state, tools (enabled/listed), uptime, restarts and last
// error; ↑↓ select, `r` restarts the selected server, `t` opens Configure Tools for it.
import { Box, Text } from 'ink';
import { useEffect, useState } from 'react';
import type { ViewProps } from './view-props.js';
import { usePoll, useKeys } from '../hooks.js';
import { cut, duration } from '../components/bars.js';
import type { ServerRow } from '../schemas.js';

const STATE_COLORS: Record<string, string> = { connected: 'green', degraded: 'yellow', connecting: 'yellow', failed: 'red', 'circuit-open': 'red', configured: 'gray', stopped: 'gray' };

function uptime(row: ServerRow): string {
  const since = row.connections.map((c) => c.connectedAt).filter((t): t is string => t !== null).sort()[0];
  return since && (row.state === 'connected' || row.state === 'degraded') ? duration(Date.now() - Date.parse(since)) : '-';
}

export function ServersView({ client, active, height, width, open, notify }: ViewProps) {
  const servers = usePoll(() => client.servers(), 2000);
  const [selected, setSelected] = useState(0);
  const [tools, setTools] = useState<Record<string, string>>({});
  const list = servers.data?.servers ?? [];
  const keys = list.map((s) => s.key).join(',');

  // Tool counts (enabled/listed), asked once per server list and after each change.
  useEffect(() => {
    let live = true;
    void (async () => {
      for (const key of keys ? keys.split(',') : []) {
        const answer = await client.serverTools(key).catch(() => undefined);
        if (!live) return;
        if (answer) setTools((t) => ({ ...t, [key]: `${answer.tools.filter((x) => x.enabled).length}/${answer.tools.length}` }));
      }
    })();
    return () => {
      live = false;
    };
  }, [client, keys, active]);

  useKeys(
    (input, key) => {
      if (key.upArrow) setSelected((i) => Math.max(0, i - 1));
      if (key.downArrow) setSelected((i) => Math.min(list.length - 1, i + 1));
      const server = list[selected];
      if (!server) return;
      if (input === 'r' && !key.ctrl) {
        notify(`Restarting ${server.key}…`);
        client.restart(server.key).then(
          () => {
            notify(`${server.key} restarted`);
            servers.reload();
          },
          (error: Error) => notify(`Restart of ${server.key} failed: ${error.message}`),
        );
      }
      if (input === 't' && !key.ctrl) open({ kind: 'tools', server: server.key });
    },
    { isActive: active },
  );

  const errorWidth = Math.max(10, width - 57);
  return (
    <Box flexDirection="column">
      <Text bold>{`  ${'SERVER'.padEnd(16)}${'STATE'.padEnd(13)}${'TOOLS'.padEnd(8)}${'UPTIME'.padEnd(9)}${'RESTARTS'.padEnd(10)}LAST ERROR`}</Text>
      {list.length === 0 && <Text dimColor>{servers.error ? 'No answer from the gateway yet.' : 'No servers configured. Ctrl+A adds one.'}</Text>}
      {list.slice(0, Math.max(1, height - 2)).map((row, i) => {
        const restarts = row.connections.reduce((sum, c) => sum + c.restarts, 0);
        const error = row.error ?? row.connections.find((c) => c.lastError)?.lastError ?? '';
        return (
          <Text key={row.key} wrap="truncate">
            <Text color={i === selected ? 'cyan' : undefined}>{`${i === selected ? '› ' : '  '}${cut(row.key, 15).padEnd(16)}`}</Text>
            <Text color={STATE_COLORS[row.state] ?? 'white'}>{row.state.padEnd(13)}</Text>
            <Text>{`${(tools[row.key] ?? '…').padEnd(8)}${uptime(row).padEnd(9)}${String(restarts).padEnd(10)}`}</Text>
            <Text color="red">{cut(error, errorWidth)}</Text>
          </Text>
        );
      })}
    </Box>
  );
}
