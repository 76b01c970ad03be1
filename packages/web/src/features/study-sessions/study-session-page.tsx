import { useState } from 'react';
import { Anchor, Button, Container, Grid, Group, Modal, Paper, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ArrowLeft, CalendarPlus } from 'lucide-react';
import { Link, useParams } from 'react-router';
import { peerOf } from '@studybuddy/shared/chat';
import { MSG } from '@studybuddy/shared/messages';
import { ROUTES } from '@studybuddy/shared/routes';
import type { StudySession } from '@studybuddy/shared/study-sessions';
import { LoadingWrapper } from '../../ui/loading-wrapper.tsx';
import { PageHeader } from '../../ui/page-header.tsx';
import { toast } from '../../ui/toast.ts';
import { useSession } from '../auth/index.ts';
import { SessionForm } from './session-form.tsx';
import { isCreator, RsvpControl, SessionFacts, StatusBadge } from './session-view.tsx';
import { StudyRoom } from './study-room.tsx';
import { studySessionKeys, studySessionsApi } from './study-sessions-api.ts';

const T = MSG.studySessions;

/** Where the session's conversation opens. */
function conversationPath(s: StudySession, me: string): string {
  if (s.conversation.kind === 'group') return `${ROUTES.groups}?group=${encodeURIComponent(s.conversation.id)}`;
  return `${ROUTES.friends}?friend=${encodeURIComponent(peerOf(s.conversation.id, me) ?? '')}`;
}

/** The planner's Change and Cancel. */
function PlannerActions({ session }: { session: StudySession }) {
  const client = useQueryClient();
  const [open, setOpen] = useState<'edit' | 'cancel' | null>(null);
  const cancel = useMutation({
    mutationFn: () => studySessionsApi.cancel(session.id),
    onSuccess: (s) => {
      client.setQueryData(studySessionKeys.one(s.id), s);
      setOpen(null);
    },
    onError: (err) => toast.error(err.message),
  });
  return (
    <>
      <Group gap="xs">
        <Button variant="light" onClick={() => setOpen('edit')}>
          {T.edit}
        </Button>
        <Button variant="subtle" color="red" onClick={() => setOpen('cancel')}>
          {T.cancel}
        </Button>
      </Group>
      <Modal
        opened={open === 'edit'}
        onClose={() => setOpen(null)}
        title={T.editTitle}
        centered
        closeButtonProps={{ 'aria-label': MSG.groups.close }}
      >
        <SessionForm
          session={session}
          submitLabel={T.save}
          onSubmit={async (fields) => {
            const s = await studySessionsApi.update(session.id, fields);
            client.setQueryData(studySessionKeys.one(s.id), s);
            toast.success(T.saved);
            setOpen(null);
          }}
        />
      </Modal>
      <Modal
        opened={open === 'cancel'}
        onClose={() => setOpen(null)}
        title={T.cancelConfirmTitle}
        centered
        closeButtonProps={{ 'aria-label': MSG.groups.close }}
      >
        <Text mb="md">{T.cancelConfirmBody}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => setOpen(null)}>
            {T.keep}
          </Button>
          <Button color="red" onClick={() => cancel.mutate()} loading={cancel.isPending}>
            {T.cancel}
          </Button>
        </Group>
      </Modal>
    </>
  );
}

/** A study session: its details and answers, and its room with the shared focus timer (issue 27 points 3, 4). */
export default function StudySessionPage() {
  const { id = '' } = useParams();
  const auth = useSession();
  const me = auth.data?.user?.id ?? '';
  const query = useQuery({ queryKey: studySessionKeys.one(id), queryFn: () => studySessionsApi.get(id), retry: false });
  if (!query.data || !me) {
    return <LoadingWrapper fill loading={!query.error} error={query.error} message={T.loadFailed} />;
  }
  const s = query.data;
  return (
    <Container size="lg" px={0}>
      <Anchor component={Link} to={conversationPath(s, me)} size="sm">
        <Group gap={4} component="span">
          <ArrowLeft size={14} aria-hidden />
          {s.conversationName || T.back}
        </Group>
      </Anchor>
      <PageHeader title={T.roomTitle(s.title)}>
        <StatusBadge session={s} />
      </PageHeader>
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Paper withBorder radius="md" p="md">
            <Stack gap="md">
              <SessionFacts session={s} />
              <Text size="xs" c="dimmed">
                {T.by(s.createdBy.name)}
              </Text>
              <RsvpControl session={s} />
              <Anchor href={studySessionsApi.icsUrl(s.id)} size="sm" download>
                <Group gap={4} component="span">
                  <CalendarPlus size={14} aria-hidden />
                  {T.downloadIcs}
                </Group>
              </Anchor>
              {s.status === 'scheduled' && isCreator(s, me) && <PlannerActions session={s} />}
            </Stack>
          </Paper>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 7 }}>
          {s.status === 'cancelled' ? <Text c="dimmed">{T.cancelled}</Text> : <StudyRoom session={s} me={me} />}
        </Grid.Col>
      </Grid>
    </Container>
  );
}
