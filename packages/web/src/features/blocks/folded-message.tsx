import { useState, type ReactNode } from 'react';
import { Box, Button, Group, Text } from '@mantine/core';
import { EyeOff } from 'lucide-react';
import { MSG } from '@studybuddy/shared/messages';

/**
 * A group message from a student the reader blocked, folded: "Message from a blocked student — Show". Show puts
 * the message itself (`children`, a list item) in its place.
 */
export function FoldedMessage({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false);
  if (open) return children;
  return (
    <Box component="li" data-testid="folded-message" style={{ display: 'flex', justifyContent: 'flex-start' }}>
      <Group
        gap={6}
        wrap="nowrap"
        px="sm"
        py={2}
        maw="100%"
        style={{ border: '1px dashed var(--mantine-color-default-border)', borderRadius: 'var(--mantine-radius-lg)' }}
      >
        <EyeOff size={14} aria-hidden color="var(--mantine-color-dimmed)" style={{ flexShrink: 0 }} />
        <Text size="sm" c="dimmed" fs="italic" style={{ minWidth: 0 }}>
          {MSG.block.folded}
          <Text span aria-hidden c="dimmed" fs="normal">
            {' —'}
          </Text>
        </Text>
        <Button
          variant="subtle"
          size="compact-sm"
          aria-label={MSG.block.showMessage}
          onClick={() => setOpen(true)}
          style={{ flexShrink: 0 }}
        >
          {MSG.block.show}
        </Button>
      </Group>
    </Box>
  );
}
