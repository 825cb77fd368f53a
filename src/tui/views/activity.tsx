// Owns the Activity view: forwarded calls live from GET /api/activity (time, client session, server, tool, status,
// latency), newest at the bottom; `f` types a filter (`server:x tool:y status:error`, other words match anything),
// Ctrl+L (handled by the app, through `epoch`) clears the log.
import { Box, Text } from 'ink';
import { useEffect, useState } from 'react';
import type { ViewProps } from './view-props.js';
import { useStream, useKeys } from '../hooks.js';
import { activityEvent, type ActivityEvent } from '../schemas.js';
import { cut } from '../components/bars.js';

const KEPT = 300;
const STATUS_COLORS: Record<string, string> = { ok: 'green', tool_error: 'yellow', error: 'red', timeout: 'red', cancelled: 'gray' };

export function matchesFilter(event: ActivityEvent, filter: string): boolean {
  for (const word of filter.trim().split(/\s+/).filter(Boolean)) {
    const [field, value] = word.includes(':') ? (word.split(/:(.*)/s) as [string, string]) : ['', word];
    const v = value.toLowerCase();
    if (field === 'server' && !event.server.toLowerCase().includes(v)) return false;
    if (field === 'tool' && !(event.tool ?? event.method ?? '').toLowerCase().includes(v)) return false;
    if (field === 'status' && !(event.status ?? '').toLowerCase().startsWith(v)) return false;
    if (field === '' && ![event.server, event.tool, event.method, event.status, event.error].some((x) => x?.toLowerCase().includes(v))) return false;
  }
  return true;
}

export function ActivityView({ client, active, height, width, epoch }: ViewProps & { epoch: number }) {
  const [events, setEvents] = useState<ActivityEvent[]>([]);
  // One state for the filter and whether it is being typed: every key applies to the newest state.
  const [{ filter, editing }, setFilterState] = useState({ filter: '', editing: false });
  const stream = useStream(client, '/api/activity?recent=100', (_type, data) => {
    const parsed = activityEvent.safeParse(data);
    if (parsed.success) setEvents((list) => [...list.slice(-(KEPT - 1)), parsed.data]);
  });
  useEffect(() => setEvents([]), [epoch]);

  useKeys(
    (input, key) =>
      setFilterState((state) => {
        if (!state.editing) return input === 'f' && !key.ctrl ? { ...state, editing: true } : state;
        if (key.return || key.escape) return { ...state, editing: false };
        if (key.backspace || key.delete) return { ...state, filter: state.filter.slice(0, -1) };
        if (input && !key.ctrl && !key.meta) return { ...state, filter: state.filter + input };
        return state;
      }),
    { isActive: active },
  );

  const shown = events.filter((e) => matchesFilter(e, filter));
  const rows = shown.slice(-Math.max(1, height - 3));
  const errorWidth = Math.max(8, width - 71);
  return (
    <Box flexDirection="column">
      <Text>
        <Text color={editing ? 'cyan' : undefined}>{`Filter: ${filter}${editing ? '▏' : ''}`}</Text>
        <Text dimColor>{`  ${shown.length}/${events.length} events · stream ${stream.status}${stream.error ? `: ${cut(stream.error, 30)}` : ''}`}</Text>
      </Text>
      <Text bold>{`${'TIME'.padEnd(9)}${'CLIENT'.padEnd(9)}${'SERVER'.padEnd(14)}${'TOOL'.padEnd(18)}${'STATUS'.padEnd(11)}${'LATENCY'.padEnd(9)}ERROR`}</Text>
      {rows.length === 0 && <Text dimColor>{events.length ? 'Nothing matches the filter.' : 'No calls yet: they appear here as clients make them.'}</Text>}
      {rows.map((e, i) => (
        <Text key={`${e.at}-${i}`} wrap="truncate">
          <Text>{`${new Date(e.at).toTimeString().slice(0, 8).padEnd(9)}${cut(e.session?.slice(0, 8) ?? '-', 8).padEnd(9)}${cut(e.server, 13).padEnd(14)}${cut(e.tool ?? e.method ?? '', 17).padEnd(18)}`}</Text>
          <Text color={STATUS_COLORS[e.status ?? ''] ?? 'cyan'}>{(e.status ?? e.kind).padEnd(11)}</Text>
          <Text>{(e.durationMs === undefined ? '' : `${Math.round(e.durationMs)}ms`).padEnd(9)}</Text>
          <Text color="red">{cut(e.error ?? '', errorWidth)}</Text>
        </Text>
      ))}
    </Box>
  );
}
