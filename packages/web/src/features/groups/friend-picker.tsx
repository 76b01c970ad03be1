import { Avatar, Checkbox, Group, ScrollArea, Stack, Text } from '@mantine/core';
import type { PersonSummary } from '@studybuddy/shared/chat';

interface Props {
  label: string;
  friends: PersonSummary[];
  value: string[];
  onChange: (ids: string[]) => void;
  error?: string | null;
  empty: string;
}

/** Friends to choose for a group, as labelled checkboxes. */
export function FriendPicker({ label, friends, value, onChange, error, empty }: Props) {
  return (
    <Checkbox.Group
      label={label}
      value={value}
      onChange={onChange}
      error={error}
      errorProps={{ c: 'var(--mantine-color-error)' }}
    >
      {friends.length ? (
        <ScrollArea.Autosize mah={260} type="auto" mt="xs">
          <Stack gap="xs">
            {friends.map((f) => (
              <Checkbox
                key={f.id}
                value={f.id}
                label={
                  <Group gap="xs" wrap="nowrap">
                    <Avatar src={f.profilePicture || null} alt="" size="sm" radius="xl" />
                    <span>{f.name}</span>
                  </Group>
                }
              />
            ))}
          </Stack>
        </ScrollArea.Autosize>
      ) : (
        <Text size="sm" c="dimmed" mt="xs">
          {empty}
        </Text>
      )}
    </Checkbox.Group>
  );
}
