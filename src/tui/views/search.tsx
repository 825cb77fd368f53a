// Owns the Search view: a query typed in place, the real search index's ranked tools (POST /api/tools/search) with
// score bars and the search mode, and the token report of GET /api/tokens (tools/list size per mode) as bars.
import { Box, Text } from 'ink';
import { useEffect, useState } from 'react';
import type { ViewProps } from './view-props.js';
import { usePoll, useKeys } from '../hooks.js';
import type { SearchAnswer } from '../schemas.js';
import { Bar, cut } from '../components/bars.js';

const DEBOUNCE_MS = 250;

export function SearchView({ client, active, height, width }: ViewProps) {
  const [query, setQuery] = useState('');
  const [answer, setAnswer] = useState<SearchAnswer>();
  const [error, setError] = useState<string>();
  const [selected, setSelected] = useState(0);
  const tokens = usePoll(() => client.tokens(), 3000);
  // Servers still starting are left out of a search; when more tools get listed, the query runs again.
  const listedTools = tokens.data?.passthrough.tools;

  useEffect(() => {
    if (!query.trim()) {
      setAnswer(undefined);
      return;
    }
    let live = true;
    const timer = setTimeout(() => {
      client.search(query.trim()).then(
        (result) => {
          if (!live) return;
          setAnswer(result);
          setError(undefined);
          setSelected(0);
        },
        (e: Error) => live && setError(e.message),
      );
    }, DEBOUNCE_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [client, query, listedTools]);

  useKeys(
    (input, key) => {
      if (key.upArrow) return setSelected((i) => Math.max(0, i - 1));
      if (key.downArrow) return setSelected((i) => Math.min((answer?.tools.length ?? 1) - 1, i + 1));
      if (key.backspace || key.delete) return setQuery((q) => q.slice(0, -1));
      if (key.escape || key.return || key.tab || key.ctrl || key.meta) return;
      if (input) setQuery((q) => q + input);
    },
    { isActive: active },
  );

  const report = tokens.data;
  const modes = report ? ([['passthrough', report.passthrough], ...(report.toolset ? [['toolset', report.toolset] as const] : []), ['meta', report.meta]] as const) : [];
  const most = Math.max(1, ...modes.map(([, m]) => m.tokens));
  const barWidth = Math.max(10, width - 44);
  const resultRows = Math.max(1, height - 4 - modes.length - 1);
  const selectedTool = answer?.tools[selected];
  return (
    <Box flexDirection="column">
      <Text>
        <Text color="cyan">{'Search: '}</Text>
        <Text>{`${query}▏`}</Text>
        <Text dimColor>{answer ? `  mode ${answer.mode} · ${answer.tools.length} result(s)` : ''}</Text>
      </Text>
      {error && <Text color="red">{cut(error, width)}</Text>}
      {answer?.note && <Text color="yellow">{cut(answer.note, width)}</Text>}
      {!answer && !error && <Text dimColor>Type what a tool should do, e.g. "add two numbers".</Text>}
      {answer?.tools.slice(0, resultRows).map((t, i) => (
        <Box key={t.name}>
          <Text color={i === selected ? 'cyan' : undefined}>{`${i === selected ? '›' : ' '}${String(i + 1).padStart(2)} ${cut(t.name, 28).padEnd(29)}`}</Text>
          <Bar fraction={t.relevance ?? t.score} width={10} color="magenta" />
          <Text>{` ${t.score.toFixed(3).padStart(7)} `}</Text>
          <Text dimColor>{cut(t.description, Math.max(5, width - 53))}</Text>
        </Box>
      ))}
      {selectedTool && <Text dimColor wrap="truncate">{`${selectedTool.server} · ${selectedTool.tool}: ${selectedTool.description}`}</Text>}
      <Text bold>{`Tokens of tools/list per mode${report ? ` (${report.encoding})` : ''}`}</Text>
      {tokens.error && <Text color="red">{cut(tokens.error, width)}</Text>}
      {modes.map(([mode, m]) => (
        <Box key={mode}>
          <Text>{`${mode.padEnd(12)}`}</Text>
          <Bar fraction={m.tokens / most} width={barWidth} color={mode === 'meta' ? 'green' : 'yellow'} />
          <Text>{` ${String(m.tokens).padStart(7)} tok ${String(m.tools).padStart(4)} tools`}</Text>
        </Box>
      ))}
    </Box>
  );
}
