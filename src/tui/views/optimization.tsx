// Owns the Optimization view: per server ●●●○○ n/m tools optimized, per tool its rates before → after per
// category or "Not optimized", and the live progress of a run (phase, tool, prompts tested per category,
// candidate n/m, bar, ETA). Keys: `o` on a server opens Optimize Tools, `d` Detail and `p` Golden Prompts on a tool.
import { Box, Text } from 'ink';
import { useKeys } from '../hooks.js';
import { useMemo, useState } from 'react';
import type { ViewProps } from './view-props.js';
import type { OptimizeAnswer, RunProgress, ToolState } from '../schemas.js';
import { Bar, cut, dots, duration, pct } from '../components/bars.js';

type Row = { kind: 'server'; server: string; optimized: number; total: number } | { kind: 'tool'; server: string; tool: ToolState };

function rates(tool: ToolState): string {
  if (!tool.evaluation) return tool.optimized ? 'optimized (no evaluation)' : 'Not optimized';
  const parts = tool.evaluation.categories
    .filter((c) => c.category !== 'overall')
    .map((c) => `${c.category.slice(0, 3)} ${pct(c.before.rate)}${c.after ? `→${pct(c.after.rate)}` : ''}`);
  return `${tool.optimized ? '' : 'Not optimized · '}${parts.join(' ')}`;
}

export function RunPanel({ run, width }: { run: RunProgress; width: number }) {
  const fraction = run.total ? run.done / run.total : 0;
  const tested = run.promptsTested ? `prompts d${run.promptsTested.direct} i${run.promptsTested.indirect} n${run.promptsTested.negative}` : '';
  return (
    <Box flexDirection="column" borderStyle="single" borderColor={run.state === 'running' ? 'yellow' : 'green'} paddingX={1}>
      <Text wrap="truncate">{`Run ${run.state} · ${run.phase}${run.server ? ` ${run.server}` : ''}${run.tool ? `.${run.tool}` : ''}${run.candidate ? ` · candidate ${run.candidate.n}/${run.candidate.m}` : ''}${tested ? ` · ${tested}` : ''}`}</Text>
      <Box>
        <Bar fraction={run.state === 'running' ? fraction : 1} width={Math.max(10, width - 34)} color="yellow" />
        <Text>{` ${run.done}/${run.total} ${pct(run.state === 'running' ? fraction : 1)}${run.etaMs !== undefined && run.state === 'running' ? ` ETA ${duration(run.etaMs)}` : ''}`}</Text>
      </Box>
      {run.error && <Text color="red">{cut(run.error, width - 4)}</Text>}
    </Box>
  );
}

export function OptimizationView({ active, height, width, open, state, error, run }: ViewProps & { state: OptimizeAnswer | undefined; error: string | undefined; reload(): void; run: RunProgress | undefined }) {
  const [selected, setSelected] = useState(0);
  const rows = useMemo<Row[]>(
    () => (state?.servers ?? []).flatMap((s): Row[] => [{ kind: 'server', server: s.server, optimized: s.optimized, total: s.total }, ...s.tools.map((tool): Row => ({ kind: 'tool', server: s.server, tool }))]),
    [state],
  );
  const row = rows[Math.min(selected, rows.length - 1)];

  useKeys(
    (input, key) => {
      if (key.upArrow) setSelected((i) => Math.max(0, i - 1));
      if (key.downArrow) setSelected((i) => Math.min(rows.length - 1, i + 1));
      if (key.pageDown) setSelected((i) => Math.min(rows.length - 1, i + 10));
      if (key.pageUp) setSelected((i) => Math.max(0, i - 10));
      if (!row || key.ctrl) return;
      if (input === 'o') open({ kind: 'optimize', server: row.server, ...(row.kind === 'tool' && { tool: row.tool.tool }) });
      if (input === 'd' && row.kind === 'tool') open({ kind: 'detail', server: row.server, tool: row.tool.tool });
      if (input === 'p' && row.kind === 'tool') open({ kind: 'prompts', server: row.server, tool: row.tool.tool });
    },
    { isActive: active },
  );

  if (!state) return <Text color={error ? 'red' : undefined}>{error ?? 'Loading…'}</Text>;
  const panel = run && (run.state === 'running' || run.finishedAt !== undefined) ? 4 : 0;
  const visible = Math.max(3, height - 1 - panel);
  const index = Math.min(selected, rows.length - 1);
  const start = Math.max(0, Math.min(index - Math.floor(visible / 2), rows.length - visible));
  return (
    <Box flexDirection="column">
      {rows.length === 0 && <Text dimColor>No servers.</Text>}
      {rows.slice(start, start + visible).map((r, i) => {
        const mark = start + i === index ? '›' : ' ';
        if (r.kind === 'server')
          return (
            <Text key={`s:${r.server}`} bold color={mark === '›' ? 'cyan' : undefined} wrap="truncate">
              {`${mark} ${r.server.padEnd(16)} `}
              <Text color="green">{dots(r.optimized, r.total)}</Text>
              {` ${r.optimized}/${r.total} tools optimized`}
            </Text>
          );
        return (
          <Text key={`t:${r.server}:${r.tool.tool}`} color={mark === '›' ? 'cyan' : r.tool.enabled ? undefined : 'gray'} wrap="truncate">
            {`${mark}   ${r.tool.optimized ? '●' : '○'} ${cut(r.tool.tool, 22).padEnd(23)}`}
            <Text color={r.tool.optimized ? 'green' : 'gray'}>{cut(rates(r.tool), Math.max(10, width - 30))}</Text>
          </Text>
        );
      })}
      {panel > 0 && run && <RunPanel run={run} width={width} />}
    </Box>
  );
}
