import { useState } from 'react';
import { Badge, Box, Button, Group, Paper, SegmentedControl, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { MODERATION_MSG as MSG } from '@studybuddy/shared/messages/moderation';
import { PUBLIC_MSG } from '@studybuddy/shared/messages/public';
import type { AdminPerson, AdminReport, ReportSnapshot, ReportStatus } from '@studybuddy/shared/moderation';
import { formatDateTime } from '../../lib/date-format.ts';
import { LoadingWrapper } from '../../ui/loading-wrapper.tsx';
import { AdminActionModal, type PendingAction } from './admin-action-modal.tsx';
import { adminApi, adminKeys } from './moderation-api.ts';

/** Moderation shows exact moments: an admin compares reports, messages and log entries by them. */
export const when = (iso: string) => formatDateTime(iso);

/** A student as the admin area names them: name, e-mail, and whether disabled. */
export function PersonLine({ label, person }: { label: string; person: AdminPerson | null }) {
  return (
    <Box style={{ minWidth: 0 }}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
        {label}
      </Text>
      {person ? (
        <Group gap={6} wrap="wrap">
          <Text size="sm" fw={600}>
            {person.name || person.email}
          </Text>
          <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {person.email}
          </Text>
          {person.disabled && (
            <Badge color="red" size="sm">
              {MSG.admin.disabledBadge}
            </Badge>
          )}
        </Group>
      ) : (
        <Text size="sm" c="dimmed">
          {MSG.admin.deletedAccount}
        </Text>
      )}
    </Box>
  );
}

function messageBody(m: ReportSnapshot['messages'][number]) {
  if (m.type === 'image') return MSG.admin.imageMessage;
  if (m.type === 'voice') return MSG.admin.voiceMessage;
  return m.content;
}

/** What the reporter saw, kept as it was: the conversation and its messages, the reported one marked. */
function Snapshot({ report }: { report: AdminReport }) {
  const { snapshot } = report;
  const place = snapshot.conversation
    ? snapshot.conversation.kind === 'group'
      ? MSG.admin.inGroup(snapshot.conversation.title ?? '')
      : MSG.admin.inChat
    : null;
  return (
    <Paper bg="var(--sb-surface-muted)" p="sm" radius="md">
      <Title order={3} size="h6">
        {MSG.admin.snapshot}
      </Title>
      <Text size="xs" c="dimmed" mb={6}>
        {MSG.admin.snapshotNote}
        {place ? ` ${place}.` : ''}
      </Text>
      {snapshot.student && report.targetKind === 'student' && (
        <Text size="sm" mb={6}>
          <Text span fw={600}>
            {snapshot.student.name || MSG.admin.deletedAccount}
          </Text>
          {[snapshot.student.major, snapshot.student.year].filter(Boolean).length
            ? ` · ${[snapshot.student.major, snapshot.student.year].filter(Boolean).join(' · ')}`
            : ''}
        </Text>
      )}
      {snapshot.messages.length ? (
        <Stack component="ol" gap={4} p={0} m={0} style={{ listStyle: 'none' }}>
          {snapshot.messages.map((m) => (
            <Box
              component="li"
              key={m.id}
              px="xs"
              py={4}
              data-reported={m.reported || undefined}
              style={{
                borderLeft: `3px solid var(--mantine-color-${m.reported ? 'error' : 'default-border'})`,
                background: m.reported ? 'var(--mantine-color-red-light)' : undefined,
              }}
            >
              <Group gap={6} wrap="wrap">
                <Text size="xs" fw={700}>
                  {m.senderName}
                </Text>
                <Text size="xs" c="dimmed">
                  {when(m.createdAt)}
                </Text>
                {m.reported && (
                  <Badge color="red" size="xs">
                    {MSG.admin.reportedMessage}
                  </Badge>
                )}
              </Group>
              <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                {messageBody(m)}
              </Text>
            </Box>
          ))}
        </Stack>
      ) : (
        <Text size="sm" c="dimmed">
          {MSG.admin.noMessages}
        </Text>
      )}
    </Paper>
  );
}

function ReportCard({ report, onAct }: { report: AdminReport; onAct: (action: PendingAction) => void }) {
  const reported = report.reported;
  const conversation = report.snapshot.conversation;
  const reportId = report.id;
  const subject = reported ? reported.email : MSG.admin.deletedAccount;
  return (
    <Paper withBorder p="md" radius="md" component="article" data-testid="admin-report" aria-label={subject}>
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Title order={2} size="h5">
            <Group gap={6} component="span">
              <Badge color="red" component="span">
                {MSG.report.reasons[report.reason]}
              </Badge>
              <Badge color="gray" component="span">
                {report.targetKind === 'student' ? MSG.admin.studentReport : MSG.admin.messageReport}
              </Badge>
            </Group>
          </Title>
          <Text size="xs" c="dimmed">
            {when(report.createdAt)}
          </Text>
        </Group>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <PersonLine label={MSG.admin.reportedBy} person={report.reporter} />
          <PersonLine label={MSG.admin.reported} person={reported} />
        </SimpleGrid>
        <Box>
          <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
            {MSG.admin.details}
          </Text>
          <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {report.details || MSG.admin.noDetails}
          </Text>
        </Box>
        <Snapshot report={report} />
        {report.resolution ? (
          <Text size="sm" c="dimmed">
            {MSG.admin.resolution(report.resolution.by, when(report.resolution.at))}: {report.resolution.note}
          </Text>
        ) : (
          <Group gap="xs" wrap="wrap">
            <Button size="xs" variant="default" onClick={() => onAct({ kind: 'resolve', reportId, subject })}>
              {MSG.admin.actions.resolve}
            </Button>
            {reported &&
              (reported.disabled ? (
                <Button
                  size="xs"
                  variant="default"
                  onClick={() => onAct({ kind: 'enable', userId: reported.id, reportId, subject })}
                >
                  {MSG.admin.actions.enable}
                </Button>
              ) : (
                <Button
                  size="xs"
                  color="red"
                  onClick={() => onAct({ kind: 'disable', userId: reported.id, reportId, subject })}
                >
                  {MSG.admin.actions.disable}
                </Button>
              ))}
            {report.targetKind === 'message' && report.messageExists && (
              <Button
                size="xs"
                color="red"
                variant="outline"
                onClick={() => onAct({ kind: 'deleteMessage', messageId: report.targetId, reportId, subject })}
              >
                {MSG.admin.actions.deleteMessage}
              </Button>
            )}
            {reported && conversation?.kind === 'group' && (
              <Button
                size="xs"
                color="red"
                variant="outline"
                onClick={() =>
                  onAct({
                    kind: 'removeFromGroup',
                    groupId: conversation.id,
                    userId: reported.id,
                    reportId,
                    subject: `${subject} · ${conversation.title ?? ''}`,
                  })
                }
              >
                {MSG.admin.actions.removeFromGroup}
              </Button>
            )}
          </Group>
        )}
      </Stack>
    </Paper>
  );
}

/** The report queue: open reports oldest first, or the resolved ones. */
export function ReportsPanel() {
  const [status, setStatus] = useState<ReportStatus>('open');
  const [pending, setPending] = useState<PendingAction | null>(null);
  const reports = useQuery({ queryKey: adminKeys.reports(status), queryFn: () => adminApi.reports(status) });
  return (
    <Stack>
      <SegmentedControl
        value={status}
        onChange={(v) => setStatus(v as ReportStatus)}
        data={[
          { value: 'open', label: MSG.admin.open },
          { value: 'resolved', label: MSG.admin.resolved },
        ]}
        style={{ alignSelf: 'flex-start' }}
        aria-label={MSG.admin.tabs.reports}
      />
      <LoadingWrapper loading={reports.isPending} error={reports.error} message={PUBLIC_MSG.loading.loading}>
        {reports.data?.reports.length ? (
          reports.data.reports.map((r) => <ReportCard key={r.id} report={r} onAct={setPending} />)
        ) : (
          <Text c="dimmed">{MSG.admin.noReports}</Text>
        )}
      </LoadingWrapper>
      <AdminActionModal action={pending} onClose={() => setPending(null)} />
    </Stack>
  );
}
