// Owns the command menu (Ctrl+K): every action grouped, each with its key, narrowed by a fuzzy query as you type;
// ↑↓ select, Enter runs, Esc closes.
import { Box, Text } from 'ink';
import { useKeys } from '../hooks.js';
import { useState } from 'react';
import type { ModalProps } from './modal-props.js';
import { ACTIONS, fuzzyScore, type Action } from '../actions.js';
import { Modal } from '../components/modal.js';

export function filterActions(query: string): Action[] {
  if (!query.trim()) return [...ACTIONS];
  return ACTIONS.map((a) => ({ a, score: fuzzyScore(query, `${a.group} ${a.label}`) }))
    .filter((x): x is { a: Action; score: number } => x.score !== undefined)
    .sort((x, y) => x.score - y.score)
    .map((x) => x.a);
}

export function CommandMenu({ close, perform, width }: ModalProps) {
  const [query, setQuery] = useState('');
  const [cursor, setCursor] = useState(0);
  const matches = filterActions(query);
  useKeys((input, key) => {
    if (key.escape) return close();
    if (key.upArrow) return setCursor((c) => Math.max(0, c - 1));
    if (key.downArrow) return setCursor((c) => Math.min(matches.length - 1, c + 1));
    if (key.return) {
      const action = matches[cursor];
      close();
      if (action) perform(action.id);
      return;
    }
    if (key.backspace || key.delete) return setQuery((q) => q.slice(0, -1));
    if (input && !key.ctrl && !key.meta) {
      setQuery((q) => q + input);
      setCursor(0);
    }
  });
  const groups = [...new Set(matches.map((a) => a.group))];
  return (
    <Modal title="Commands" keys="type to filter  ↑↓ select  Enter run  Esc close" width={Math.min(width, 60)}>
      <Text>
        <Text color="cyan">{'> '}</Text>
        {query}▏
      </Text>
      {matches.length === 0 && <Text dimColor>No command matches.</Text>}
      {groups.map((group) => (
        <Box key={group} flexDirection="column">
          <Text dimColor>{group}</Text>
          {matches
            .filter((a) => a.group === group)
            .map((a) => (
              <Text key={a.id} color={matches[cursor] === a ? 'cyan' : undefined}>{`${matches[cursor] === a ? '›' : ' '} ${a.label.padEnd(24)}${a.key}`}</Text>
            ))}
        </Box>
      ))}
    </Modal>
  );
}
