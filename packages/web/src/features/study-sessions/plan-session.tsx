import { useState } from 'react';
import { ActionIcon, Button, Modal, Tooltip } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { CalendarPlus } from 'lucide-react';
import { Link, useNavigate } from 'react-router';
import type { ConversationRef } from '@studybuddy/shared/chat';
import { MSG } from '@studybuddy/shared/messages';
import { newStudySessionPath, studySessionPath, type StudySessionFields } from '@studybuddy/shared/study-sessions';
import { toast } from '../../ui/toast.ts';
import { SessionForm, type SessionPrefill } from './session-form.tsx';
import { studySessionKeys, studySessionsApi } from './study-sessions-api.ts';

const T = MSG.studySessions;

/** Creates the session in the conversation and opens its page. */
export function usePlanSession(conversation: ConversationRef) {
  const client = useQueryClient();
  const navigate = useNavigate();
  return async (fields: StudySessionFields) => {
    const s = await studySessionsApi.create({ ...fields, conversation });
    client.setQueryData(studySessionKeys.one(s.id), s);
    void client.invalidateQueries({ queryKey: studySessionKeys.of(conversation) });
    toast.success(T.created);
    void navigate(studySessionPath(s.id));
  };
}

/** The form in a dialog: by hand from a conversation's header, or pre-filled from a proposed slot. */
export function PlanSessionModal({
  conversation,
  name,
  prefill,
  opened,
  onClose,
}: {
  conversation: ConversationRef;
  name: string;
  prefill?: SessionPrefill;
  opened: boolean;
  onClose: () => void;
}) {
  const plan = usePlanSession(conversation);
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={T.planIn(name)}
      centered
      closeButtonProps={{ 'aria-label': MSG.groups.close }}
    >
      <SessionForm prefill={prefill} submitLabel={T.create} onSubmit={plan} />
    </Modal>
  );
}

/** A conversation header's "Plan a session" button. */
export function PlanSessionButton({ conversation, name }: { conversation: ConversationRef; name: string }) {
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Tooltip label={T.plan}>
        <ActionIcon variant="subtle" color="gray" size="lg" aria-label={T.plan} onClick={() => setOpened(true)}>
          <CalendarPlus size={18} aria-hidden />
        </ActionIcon>
      </Tooltip>
      {opened && <PlanSessionModal conversation={conversation} name={name} opened onClose={() => setOpened(false)} />}
    </>
  );
}

/** Beside a proposed slot of Find a time: opens the form pre-filled with the slot's start and length. */
export function PlanFromSlot({
  conversation,
  slot,
  onOpen,
}: {
  conversation: ConversationRef;
  slot: { start: string; end: string };
  onOpen?: () => void;
}) {
  const minutes = Math.round((Date.parse(slot.end) - Date.parse(slot.start)) / 60_000);
  return (
    <Button size="xs" component={Link} to={newStudySessionPath(conversation, slot.start, minutes)} onClick={onOpen}>
      {T.fromSlot}
    </Button>
  );
}
