import { Group, Modal, Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { MSG } from '@studybuddy/shared/messages';
import { BlockButton } from '../blocks/index.ts';
import { ReportButton } from '../moderation/index.ts';
import { LoadingWrapper } from '../../ui/loading-wrapper.tsx';
import { ImageCarousel } from './image-carousel.tsx';
import { ProfileDetails } from './profile-details.tsx';
import { socialApi, socialKeys } from './social-api.ts';

/** A friend's (or a request sender's) profile summary: carousel, name, college, major, year, shared courses, bio. */
export function ProfileModal({ uid, onClose }: { uid: string | null; onClose: () => void }) {
  const profile = useQuery({
    queryKey: socialKeys.profile(uid ?? ''),
    queryFn: () => socialApi.profile(uid!),
    enabled: !!uid,
  });
  return (
    <Modal
      opened={!!uid}
      onClose={onClose}
      title={MSG.friends.profileTitle}
      size="lg"
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <LoadingWrapper loading={profile.isPending} error={profile.error} message={MSG.loading.loading}>
        {profile.data && (
          <Stack>
            <ImageCarousel images={profile.data.images} name={profile.data.name} height={300} />
            <ProfileDetails profile={profile.data} headingOrder={3} />
            <Group gap={4}>
              <ReportButton userId={profile.data.uid} name={profile.data.name} />
              <BlockButton userId={profile.data.uid} name={profile.data.name} onBlocked={onClose} />
            </Group>
          </Stack>
        )}
      </LoadingWrapper>
    </Modal>
  );
}
