import { ActionIcon, Tooltip } from '@mantine/core';
import { Bell, BellOff } from 'lucide-react';
import { MSG } from '@studybuddy/shared/messages';
import { toast } from '../../ui/toast.ts';
import { useMuteGroup, usePushSettings } from './push-api.ts';

/** In a group's header: mutes (or unmutes) the group's push notices for this student. */
export function MuteGroupButton({ groupId }: { groupId: string }) {
  const settings = usePushSettings();
  const mute = useMuteGroup(groupId);
  const muted = mute.isPending ? !!mute.variables : (settings.data?.mutedGroups.includes(groupId) ?? false);
  const label = muted ? MSG.push.unmute : MSG.push.mute;
  return (
    <Tooltip label={label}>
      <ActionIcon
        variant="subtle"
        color="gray"
        size="lg"
        aria-label={label}
        aria-pressed={muted}
        disabled={!settings.data || mute.isPending}
        onClick={() =>
          mute.mutate(!muted, {
            onSuccess: () => toast.info(muted ? MSG.push.unmuted : MSG.push.muted),
            onError: () => toast.error(MSG.push.saveFailed),
          })
        }
      >
        {muted ? <BellOff size={18} aria-hidden /> : <Bell size={18} aria-hidden />}
      </ActionIcon>
    </Tooltip>
  );
}
