import type { ReactNode } from 'react';
import { ActionIcon, Modal, Tooltip } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { CalendarSearch } from 'lucide-react';
import { MSG } from '@studybuddy/shared/messages';
import type { ProposedSlot } from '@studybuddy/shared/schedule';
import { FindATime } from './find-a-time.tsx';
import type { FindATimeTarget } from './schedule-api.ts';

/** "Find a time" for a group or a friend: a button opening the heat map and proposals in a modal. */
export function FindATimeButton({
  target,
  slotAction,
}: {
  target: FindATimeTarget;
  slotAction?: (slot: ProposedSlot, close: () => void) => ReactNode;
}) {
  const [opened, { open, close }] = useDisclosure(false);
  return (
    <>
      <Tooltip label={MSG.findTime.open}>
        <ActionIcon variant="subtle" color="gray" size="lg" aria-label={MSG.findTime.open} onClick={open}>
          <CalendarSearch size={18} aria-hidden />
        </ActionIcon>
      </Tooltip>
      <Modal
        opened={opened}
        onClose={close}
        title={MSG.findTime.title}
        size="xl"
        closeButtonProps={{ 'aria-label': MSG.findTime.close }}
      >
        {opened && <FindATime target={target} slotAction={slotAction && ((s) => slotAction(s, close))} />}
      </Modal>
    </>
  );
}
