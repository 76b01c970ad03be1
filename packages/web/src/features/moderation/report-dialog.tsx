import { useState } from 'react';
import { ActionIcon, Alert, Button, Menu, Modal, Select, Stack, Text, Textarea } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { CheckCircle2, Ellipsis, Flag } from 'lucide-react';
import { MODERATION_MSG as MSG } from '@studybuddy/shared/messages/moderation';
import {
  MODERATION_LIMITS,
  REPORT_REASONS,
  type ReportReason,
  type ReportTargetKind,
} from '@studybuddy/shared/moderation';
import { ApiRequestError } from '../../lib/api.ts';
import { FormActions, type ModalState } from '../../ui/form-actions.tsx';
import { moderationApi } from './moderation-api.ts';

export interface ReportTarget {
  kind: ReportTargetKind;
  id: string;
}

const REASON_OPTIONS = REPORT_REASONS.map((value) => ({ value, label: MSG.report.reasons[value] }));

/** Asks for a reason and optional words, sends the report, then confirms it was received (and nothing more). */
export function ReportDialog({ target, title, opened, onClose }: ModalState & { target: ReportTarget; title: string }) {
  const [reason, setReason] = useState<ReportReason | null>(null);
  const [details, setDetails] = useState('');
  const [reasonError, setReasonError] = useState<string | undefined>();
  const send = useMutation({
    mutationFn: () =>
      moderationApi.report({ targetKind: target.kind, targetId: target.id, reason: reason!, details: details.trim() }),
  });
  const close = () => {
    onClose();
    // Fresh for the next report once the modal has gone.
    setTimeout(() => {
      send.reset();
      setReason(null);
      setDetails('');
      setReasonError(undefined);
    }, 200);
  };
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    if (!reason) {
      setReasonError(MSG.report.reasonRequired);
      return;
    }
    send.mutate();
  };
  const failure =
    send.error instanceof ApiRequestError && send.error.status >= 400 && send.error.status < 500
      ? send.error.message
      : MSG.report.failed;

  return (
    <Modal opened={opened} onClose={close} title={title} centered closeButtonProps={{ 'aria-label': MSG.report.close }}>
      {send.isSuccess ? (
        <Stack>
          <Alert color="green" icon={<CheckCircle2 size={18} aria-hidden />} role="status">
            {MSG.report.sent}
          </Alert>
          <Button onClick={close} style={{ alignSelf: 'flex-end' }}>
            {MSG.report.close}
          </Button>
        </Stack>
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack>
            <Text size="sm" c="dimmed">
              {MSG.report.intro}
            </Text>
            <Select
              label={MSG.report.reason}
              placeholder={MSG.report.reasonPlaceholder}
              data={REASON_OPTIONS}
              value={reason}
              onChange={(value) => {
                setReason(value as ReportReason | null);
                setReasonError(undefined);
              }}
              error={reasonError}
              required
              allowDeselect={false}
              comboboxProps={{ withinPortal: true }}
            />
            <Textarea
              label={MSG.report.details}
              autosize
              minRows={3}
              maxLength={MODERATION_LIMITS.reportDetailsMaxChars}
              value={details}
              onChange={(e) => setDetails(e.currentTarget.value)}
            />
            <FormActions
              error={send.isError && failure}
              cancelLabel={MSG.report.cancel}
              onCancel={close}
              confirmLabel={MSG.report.submit}
              danger
              pending={send.isPending}
            />
          </Stack>
        </form>
      )}
    </Modal>
  );
}

/**
 * "Report" on a student's card or a chat header: a subtle button (or, `compact`, an icon with the same name) that
 * opens the report dialog.
 */
export function ReportButton({ userId, name, compact }: { userId: string; name: string; compact?: boolean }) {
  const [opened, setOpened] = useState(false);
  const label = MSG.report.reportStudent(name);
  return (
    <>
      {compact ? (
        <ActionIcon
          variant="subtle"
          color="gray"
          size="lg"
          aria-label={label}
          title={label}
          onClick={() => setOpened(true)}
        >
          <Flag size={18} aria-hidden />
        </ActionIcon>
      ) : (
        <Button
          variant="subtle"
          color="gray"
          leftSection={<Flag size={16} aria-hidden />}
          aria-label={label}
          onClick={() => setOpened(true)}
        >
          {MSG.report.action}
        </Button>
      )}
      <ReportDialog
        target={{ kind: 'student', id: userId }}
        title={label}
        opened={opened}
        onClose={() => setOpened(false)}
      />
    </>
  );
}

/** A message's menu (others' messages): Report message. */
export function MessageMenu({ messageId }: { messageId: string }) {
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Menu position="bottom-start" withinPortal>
        <Menu.Target>
          <ActionIcon variant="subtle" color="gray" size="sm" aria-label={MSG.report.messageMenu}>
            <Ellipsis size={14} aria-hidden />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item leftSection={<Flag size={14} aria-hidden />} onClick={() => setOpened(true)}>
            {MSG.report.reportMessage}
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      <ReportDialog
        target={{ kind: 'message', id: messageId }}
        title={MSG.report.reportMessage}
        opened={opened}
        onClose={() => setOpened(false)}
      />
    </>
  );
}
