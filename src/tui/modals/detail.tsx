// Owns the Detail modal of one tool's optimization: status, canonical and promoted text with character counts,
// per category before → after with intervals and bars, prompts tested; `r` Revert, `R` Re-optimize, `x` Export.
import { Box, Text } from 'ink';
import { useKeys } from '../hooks.js';
import type { ModalProps } from './modal-props.js';
import { Modal } from '../components/modal.js';
import { Bar, cut, pct } from '../components/bars.js';
import type { Rate } from '../schemas.js';

const interval = (r: Rate) => `${pct(r.rate)} [${pct(r.low)}–${pct(r.high)}]`;

export function DetailModal({ client, close, open, notify, optimization, reloadOptimization, server, tool, width }: ModalProps & { server: string; tool: string }) {
  const state = optimization?.servers.find((s) => s.server === server)?.tools.find((t) => t.tool === tool);
  useKeys((input, key) => {
    if (key.escape) return close();
    if (input === 'r' && state?.optimized)
      client.revert(server, tool).then(
        () => {
          notify(`${server}.${tool} reverted to its canonical description`);
          reloadOptimization();
          close();
        },
        (e: Error) => notify(`Revert failed: ${e.message}`),
      );
    if (input === 'R') open({ kind: 'optimize', server, tool });
    if (input === 'x' || (key.ctrl && input === 'e')) open({ kind: 'export', server });
  });
  if (!state) return <Modal title={`Detail: ${server}.${tool}`} keys="Esc back">{<Text dimColor>No optimization data for this tool.</Text>}</Modal>;
  const status = state.optimized ? `Optimized${state.forced ? ' (forced)' : ''}` : state.stale ? 'Stale promotion' : 'Not optimized';
  const textWidth = width - 6;
  return (
    <Modal title={`Detail: ${server}.${tool}`} keys="r Revert  R Re-optimize  x Export Report  Esc back" width={width}>
      <Text>
        <Text bold>Status: </Text>
        <Text color={state.optimized ? 'green' : 'yellow'}>{status}</Text>
        <Text dimColor>{`  · prompts tested d${state.prompts.direct} i${state.prompts.indirect} n${state.prompts.negative} · ${state.candidates} candidate(s)`}</Text>
      </Text>
      <Text bold>{`Canonical (${state.canonical.chars} chars)`}</Text>
      <Text wrap="truncate-end">{cut(state.canonical.text, textWidth * 2)}</Text>
      <Text bold>{state.promoted ? `Promoted (${state.promoted.chars} chars)` : 'Promoted: none (canonical shown)'}</Text>
      {state.promoted && <Text color="green">{cut(state.promoted.text, textWidth * 3)}</Text>}
      {state.evaluation ? (
        <Box flexDirection="column">
          <Text bold>{`Evaluation${state.evaluation.candidateId ? ` of ${state.evaluation.candidateId}` : ''}: ${state.evaluation.passes ? 'passes the rule' : `refused${state.evaluation.refused ? ` (${cut(state.evaluation.refused, 40)})` : ''}`}`}</Text>
          {state.evaluation.categories.map((c) => (
            <Box key={c.category}>
              <Text>{`${c.category.padEnd(9)}${interval(c.before).padEnd(19)}→ ${c.after ? interval(c.after).padEnd(19) : '-'.padEnd(19)}`}</Text>
              <Bar fraction={c.after?.rate ?? c.before.rate} width={Math.max(6, width - 56)} color={c.after && c.after.rate >= c.before.rate ? 'green' : 'red'} />
            </Box>
          ))}
        </Box>
      ) : (
        <Text dimColor>No evaluation yet: press R to optimize it.</Text>
      )}
    </Modal>
  );
}
