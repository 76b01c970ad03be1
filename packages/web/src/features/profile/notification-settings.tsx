import { Paper, Switch, Text } from '@mantine/core';
import { MSG } from '@studybuddy/shared/messages';
import type { OwnProfile } from '@studybuddy/shared/session';
import { useSaveNotificationSettings } from './profile-api.ts';

/** The e-mail notices switch (beyond the spec: the friend-request e-mail's unsubscribe link turns it off too). */
export function NotificationSettings({ profile }: { profile: OwnProfile }) {
  const save = useSaveNotificationSettings();
  const checked = save.isPending ? !!save.variables?.emailNotificationsEnabled : profile.emailNotificationsEnabled;
  return (
    <Paper withBorder p="lg">
      <Switch
        label={MSG.profile.emailNotifications}
        checked={checked}
        disabled={save.isPending}
        onChange={(e) => save.mutate({ emailNotificationsEnabled: e.currentTarget.checked })}
      />
      {save.error && (
        <Text c="red" size="sm" mt="xs" role="alert">
          {save.error.message}
        </Text>
      )}
    </Paper>
  );
}
