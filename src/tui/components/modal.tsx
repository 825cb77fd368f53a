// Owns the frame of a modal: a bordered box with a title and the modal's own keys under it.
import { Box, Text } from 'ink';
import type { ReactNode } from 'react';

export function Modal({ title, keys, children, width = 76 }: { title: string; keys: string; children: ReactNode; width?: number }) {
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="cyan" paddingX={1} width={width}>
      <Text bold color="cyan">
        {title}
      </Text>
      {children}
      <Text dimColor>{keys}</Text>
    </Box>
  );
}
