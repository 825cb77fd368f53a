// Owns the Golden Prompts modal: a tool's prompts per category, each pass/fail (✓/✗, or · when not evaluated) with
// its expected behaviour, and the success rate per category; ↑↓ scroll.
import { Box, Text } from 'ink';
import { useState, type ReactElement } from 'react';
import type { ModalProps } from './modal-props.js';
import { usePoll, useKeys } from '../hooks.js';
import { Modal } from '../components/modal.js';
import { cut, pct } from '../components/bars.js';

export function GoldenPromptsModal({ client, close, server, tool, width, height }: ModalProps & { server: string; tool: string }) {
  const answer = usePoll(() => client.prompts(server, tool), 0, [server, tool]);
  const [offset, setOffset] = useState(0);
  const entry = answer.data?.tools.find((t) => t.tool === tool);
  const lines: Array<{ key: string; node: ReactElement }> = [];
  for (const category of ['direct', 'indirect', 'negative']) {
    const prompts = entry?.prompts.filter((p) => p.category === category) ?? [];
    if (!prompts.length) continue;
    const rate = entry?.rates[category];
    lines.push({ key: category, node: <Text bold>{`${category} (${prompts.length})${rate === undefined ? '' : ` success ${pct(rate)}`}`}</Text> });
    for (const p of prompts)
      lines.push({
        key: p.id,
        node: (
          <Text wrap="truncate">
            <Text color={p.passed === undefined ? 'gray' : p.passed ? 'green' : 'red'}>{p.passed === undefined ? ' · ' : p.passed ? ' ✓ ' : ' ✗ '}</Text>
            {cut(p.prompt, width - 30).padEnd(width - 29)}
            <Text dimColor>{`${p.expectedBehavior.shouldCallTool ? 'call it' : 'not call'} ${p.split === 'holdout' ? 'H' : ''}`}</Text>
          </Text>
        ),
      });
  }
  const visible = Math.max(3, height - 5);
  useKeys((_input, key) => {
    if (key.escape) return close();
    if (key.downArrow) setOffset((o) => Math.min(Math.max(0, lines.length - visible), o + 1));
    if (key.upArrow) setOffset((o) => Math.max(0, o - 1));
  });
  return (
    <Modal title={`Golden Prompts: ${server}.${tool}`} keys="↑↓ scroll  Esc back  (✓ pass ✗ fail · not run; H held out)" width={width}>
      {answer.error && <Text color="red">{answer.error}</Text>}
      {!answer.data && !answer.error && <Text dimColor>Loading…</Text>}
      {answer.data && lines.length === 0 && <Text dimColor>No golden prompts for this tool (POST /api/optimize/prompts or "switchboard optimize prompts --import").</Text>}
      <Box flexDirection="column">{lines.slice(offset, offset + visible).map((l) => <Box key={l.key}>{l.node}</Box>)}</Box>
    </Modal>
  );
}
