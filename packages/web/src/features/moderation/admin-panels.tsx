import { useState } from 'react';
import { Badge, Button, Group, Paper, Rating, Stack, Table, Text, TextInput, VisuallyHidden } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { Search } from 'lucide-react';
import { MODERATION_MSG as MSG } from '@studybuddy/shared/messages/moderation';
import { PUBLIC_MSG } from '@studybuddy/shared/messages/public';
import { MODERATION_LIMITS, type AdminStudent } from '@studybuddy/shared/moderation';
import { LoadingWrapper } from '../../ui/loading-wrapper.tsx';
import { AdminActionModal, type PendingAction } from './admin-action-modal.tsx';
import { AdminTable } from './admin-table.tsx';
import { PersonLine, when } from './admin-reports.tsx';
import { adminApi, adminKeys } from './moderation-api.ts';

const loading = PUBLIC_MSG.loading.loading;

/** The feedback table, newest first, with who sent each (signed-out visitors are anonymous). */
export function FeedbackPanel() {
  const inbox = useQuery({ queryKey: adminKeys.feedback, queryFn: adminApi.feedback });
  return (
    <LoadingWrapper loading={inbox.isPending} error={inbox.error} message={loading}>
      <Stack>
        {inbox.data?.feedback.length ? (
          inbox.data.feedback.map((f) => (
            <Paper key={f.id} withBorder p="md" radius="md" component="article" data-testid="admin-feedback">
              <Group justify="space-between" wrap="wrap" gap="xs" mb={6}>
                <Rating value={f.rating} readOnly size="sm" aria-label={MSG.admin.rating(f.rating)} />
                <Text size="xs" c="dimmed">
                  {when(f.createdAt)}
                </Text>
              </Group>
              <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} mb={6}>
                {f.feedback}
              </Text>
              {f.from ? (
                <PersonLine label={MSG.admin.from} person={f.from} />
              ) : (
                <Text size="xs" c="dimmed">
                  {MSG.admin.anonymous}
                </Text>
              )}
            </Paper>
          ))
        ) : (
          <Text c="dimmed">{MSG.admin.noFeedback}</Text>
        )}
      </Stack>
    </LoadingWrapper>
  );
}

function StudentBadges({ student }: { student: AdminStudent }) {
  return (
    <Group gap={4}>
      {student.disabled ? (
        <Badge color="red" size="sm">
          {MSG.admin.disabledBadge}
        </Badge>
      ) : (
        <Badge color="teal.9" size="sm">
          {MSG.admin.active}
        </Badge>
      )}
      {student.admin && (
        <Badge color="indigo" size="sm">
          {MSG.admin.adminBadge}
        </Badge>
      )}
    </Group>
  );
}

function StudentAction({ student, onAct }: { student: AdminStudent; onAct: (action: PendingAction) => void }) {
  const label = student.disabled ? MSG.admin.actions.enable : MSG.admin.actions.disable;
  return (
    <Button
      size="xs"
      color={student.disabled ? undefined : 'red'}
      variant={student.disabled ? 'default' : 'filled'}
      aria-label={`${label}: ${student.email}`}
      onClick={() =>
        onAct({ kind: student.disabled ? 'enable' : 'disable', userId: student.id, subject: student.email })
      }
    >
      {label}
    </Button>
  );
}

/** Students by e-mail or name, at any college, with disable / enable. */
export function StudentsPanel() {
  const [q, setQ] = useState('');
  const [debounced] = useDebouncedValue(q.trim(), 300);
  const [pending, setPending] = useState<PendingAction | null>(null);
  const ready = debounced.length >= MODERATION_LIMITS.searchMinChars;
  const found = useQuery({
    queryKey: adminKeys.students(debounced),
    queryFn: () => adminApi.students(debounced),
    enabled: ready,
  });
  const c = MSG.admin.columns;
  return (
    <Stack>
      <TextInput
        label={MSG.admin.searchLabel}
        placeholder={MSG.admin.searchPlaceholder}
        description={MSG.admin.searchHint}
        leftSection={<Search size={16} aria-hidden />}
        value={q}
        onChange={(e) => setQ(e.currentTarget.value)}
        maw={420}
      />
      {ready && (
        <LoadingWrapper loading={found.isPending} error={found.error} message={loading}>
          {found.data?.students.length ? (
            <AdminTable
              testId="admin-students"
              head={[
                c.name,
                c.email,
                c.college,
                c.status,
                c.joined,
                <VisuallyHidden key="actions">{c.actions}</VisuallyHidden>,
              ]}
              items={found.data.students}
              row={(s) => (
                <>
                  <Table.Td>{s.name}</Table.Td>
                  <Table.Td>{s.email}</Table.Td>
                  <Table.Td>{s.college}</Table.Td>
                  <Table.Td>
                    <StudentBadges student={s} />
                  </Table.Td>
                  <Table.Td>{when(s.createdAt)}</Table.Td>
                  <Table.Td>
                    <StudentAction student={s} onAct={setPending} />
                  </Table.Td>
                </>
              )}
              card={(s) => (
                <Stack gap="xs" align="flex-start">
                  <Stack gap={2} style={{ minWidth: 0, alignSelf: 'stretch' }}>
                    <Text fw={600}>{s.name || s.email}</Text>
                    <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                      {s.email}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {s.college} · {c.joined} {when(s.createdAt)}
                    </Text>
                    <StudentBadges student={s} />
                  </Stack>
                  <StudentAction student={s} onAct={setPending} />
                </Stack>
              )}
            />
          ) : (
            <Text c="dimmed">{MSG.admin.noStudents}</Text>
          )}
        </LoadingWrapper>
      )}
      <AdminActionModal action={pending} onClose={() => setPending(null)} />
    </Stack>
  );
}

/** Every admin action, newest first; read-only. */
export function AuditPanel() {
  const log = useQuery({ queryKey: adminKeys.audit, queryFn: adminApi.audit });
  const a = MSG.admin.audit;
  return (
    <Stack>
      <Text size="sm" c="dimmed">
        {a.readOnly}
      </Text>
      <LoadingWrapper loading={log.isPending} error={log.error} message={loading}>
        {log.data?.entries.length ? (
          <AdminTable
            testId="admin-audit"
            head={[a.when, a.who, a.what, a.target, a.why]}
            items={log.data.entries}
            row={(e) => (
              <>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{when(e.at)}</Table.Td>
                <Table.Td>{e.actor}</Table.Td>
                <Table.Td>{a.actions[e.action]}</Table.Td>
                <Table.Td>{e.targetLabel || e.targetId}</Table.Td>
                <Table.Td style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{e.reason}</Table.Td>
              </>
            )}
            card={(e) => (
              <>
                <Text size="xs" c="dimmed">
                  {when(e.at)} · {e.actor}
                </Text>
                <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
                  {a.actions[e.action]}: {e.targetLabel || e.targetId}
                </Text>
                <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                  {e.reason}
                </Text>
              </>
            )}
          />
        ) : (
          <Text c="dimmed">{MSG.admin.noAudit}</Text>
        )}
      </LoadingWrapper>
    </Stack>
  );
}
