import { Container, Paper } from '@mantine/core';
import { useSearchParams } from 'react-router';
import { MSG } from '@studybuddy/shared/messages';
import { PageHeader } from '../../ui/page-header.tsx';
import { SessionForm } from './session-form.tsx';
import { usePlanSession } from './plan-session.tsx';

const T = MSG.studySessions;

/**
 * Plans a session from an address: `?kind=group&id=…` names the conversation, and a proposed slot (Find a time)
 * pre-fills it with `start` (an ISO instant) and `minutes`.
 */
export default function NewStudySessionPage() {
  const [params] = useSearchParams();
  const kind = params.get('kind') === 'chat' ? 'chat' : 'group';
  const id = params.get('id') ?? '';
  const minutes = Number(params.get('minutes'));
  const start = params.get('start') ?? undefined;
  const plan = usePlanSession({ kind, id });
  return (
    <Container size="sm" px={0}>
      <PageHeader title={T.planTitle} />
      <Paper withBorder radius="md" p="md">
        <SessionForm
          prefill={{
            start: start && !Number.isNaN(Date.parse(start)) ? start : undefined,
            minutes: minutes || undefined,
          }}
          submitLabel={T.create}
          onSubmit={plan}
        />
      </Paper>
    </Container>
  );
}
