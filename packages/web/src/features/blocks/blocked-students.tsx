import { Avatar, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { History, Lock } from 'lucide-react';
import { Link } from 'react-router';
import { MSG } from '@studybuddy/shared/messages';
import { ROUTES } from '@studybuddy/shared/routes';
import { LoadingWrapper } from '../../ui/loading-wrapper.tsx';
import { useBlockedList } from './blocks-api.ts';
import { useUnblock } from './block-dialog.tsx';

/** Profile → Blocked students: each with their chat's history (read-only) and Unblock. */
export function BlockedStudents() {
  const list = useBlockedList();
  const unblock = useUnblock();
  const blocked = list.data?.blocked ?? [];
  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="blocked-title">
      <Stack gap="md">
        <div>
          <Title order={2} size="h4" id="blocked-title">
            {MSG.block.listTitle}
          </Title>
          <Text size="sm" c="dimmed" mt={4}>
            {MSG.block.listIntro}
          </Text>
        </div>
        <LoadingWrapper loading={list.isPending} error={list.error} message={MSG.loading.loading}>
          {blocked.length === 0 ? (
            <Text size="sm" c="dimmed">
              {MSG.block.listEmpty}
            </Text>
          ) : (
            <Stack gap="sm" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label={MSG.block.listTitle}>
              {blocked.map((b) => (
                <Group
                  key={b.uid}
                  component="li"
                  justify="space-between"
                  gap="sm"
                  wrap="wrap"
                  data-testid="blocked-student"
                >
                  <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
                    <Avatar src={b.profilePicture || null} alt="" radius="xl" />
                    <Text fw={500} truncate>
                      {b.name}
                    </Text>
                  </Group>
                  <Group gap="xs" wrap="nowrap">
                    <Button
                      component={Link}
                      to={`${ROUTES.friends}?friend=${encodeURIComponent(b.uid)}`}
                      variant="default"
                      size="xs"
                      leftSection={<History size={14} aria-hidden />}
                      aria-label={MSG.block.viewChatOf(b.name)}
                    >
                      {MSG.block.viewChat}
                    </Button>
                    <Button
                      variant="light"
                      size="xs"
                      loading={unblock.isPending && unblock.variables?.userId === b.uid}
                      aria-label={MSG.block.unblockStudent(b.name)}
                      onClick={() => unblock.mutate({ userId: b.uid, name: b.name })}
                    >
                      {MSG.block.unblock}
                    </Button>
                  </Group>
                </Group>
              ))}
            </Stack>
          )}
        </LoadingWrapper>
      </Stack>
    </Paper>
  );
}

/** In place of the composer of a chat with a student the reader blocked: read-only, and Unblock. */
export function BlockedChatNotice({ userId, name }: { userId: string; name: string }) {
  const unblock = useUnblock();
  return (
    <Group
      px="md"
      py="sm"
      gap="sm"
      justify="space-between"
      wrap="wrap"
      role="status"
      data-testid="blocked-chat-notice"
      style={{ borderTop: '1px solid var(--mantine-color-default-border)', background: 'var(--sb-surface-muted)' }}
    >
      <Group gap="xs" wrap="nowrap" style={{ flex: 1, minWidth: 200 }}>
        <Lock size={16} aria-hidden color="var(--mantine-color-dimmed)" style={{ flexShrink: 0 }} />
        <Text size="sm" c="dimmed">
          {MSG.block.readOnly(name)}
        </Text>
      </Group>
      <Button
        variant="light"
        size="xs"
        loading={unblock.isPending}
        aria-label={MSG.block.unblockStudent(name)}
        onClick={() => unblock.mutate({ userId, name })}
      >
        {MSG.block.unblock}
      </Button>
    </Group>
  );
}
