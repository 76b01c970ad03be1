import { useState } from 'react';
import { Avatar, Loader, Modal, NavLink, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { Search } from 'lucide-react';
import { MSG } from '@studybuddy/shared/messages';
import type { MatchCandidate } from '@studybuddy/shared/social';
import { socialApi, socialKeys } from './social-api.ts';

interface Props {
  opened: boolean;
  onClose: () => void;
  onPick: (candidate: MatchCandidate) => void;
}

/** User search of the match finder (requirements §5): name prefix, own college, not self or friends. */
export function UserSearch({ opened, onClose, onPick }: Props) {
  const [text, setText] = useState('');
  const [q] = useDebouncedValue(text.trim(), 250);
  const results = useQuery({
    queryKey: socialKeys.search(q),
    queryFn: () => socialApi.search(q),
    enabled: opened && q.length > 0,
    staleTime: 5_000,
  });
  const users = results.data?.users ?? [];

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={MSG.match.search}
      size="md"
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <Stack gap="sm">
        <TextInput
          label={MSG.match.searchLabel}
          placeholder="Start typing a name"
          leftSection={<Search size={16} aria-hidden />}
          rightSection={results.isFetching ? <Loader size="xs" /> : null}
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
          data-autofocus
        />
        {q && results.isSuccess && users.length === 0 && (
          <Text size="sm" c="dimmed" role="status">
            {MSG.match.searchNoResults}
          </Text>
        )}
        {users.length > 0 && (
          <Stack gap={4} component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Search results">
            {users.map((u) => (
              <li key={u.uid}>
                <NavLink
                  component="button"
                  label={u.name}
                  description={`${u.major} · ${u.year}`}
                  leftSection={<Avatar src={u.profilePicture} alt="" radius="xl" />}
                  onClick={() => onPick(u)}
                  style={{ borderRadius: 'var(--mantine-radius-md)' }}
                />
              </li>
            ))}
          </Stack>
        )}
      </Stack>
    </Modal>
  );
}
