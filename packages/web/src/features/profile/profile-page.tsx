import { useState } from 'react';
import { Button, Stack } from '@mantine/core';
import { Pencil } from 'lucide-react';
import { MSG } from '@studybuddy/shared/messages';
import { isProfileComplete, type OwnProfile } from '@studybuddy/shared/session';
import { LoadingWrapper } from '../../ui/loading-wrapper.tsx';
import { PageHeader } from '../../ui/page-header.tsx';
import { BlockedStudents } from '../blocks/index.ts';
import { DangerZone } from './danger-zone.tsx';
import { NotificationSettings } from './notification-settings.tsx';
import { PushSettings } from '../push/index.ts';
import { ProfileForm } from './profile-form.tsx';
import { useOwnProfile } from './profile-api.ts';
import { ProfileView } from './profile-view.tsx';
import { SecuritySection } from './security-section.tsx';
import { YourDataSection } from './your-data-section.tsx';
import { WelcomeModal } from './welcome-modal.tsx';

/** /profile: read-only 'Your Profile' with Edit Profile; an incomplete profile opens in edit mode with a welcome. */
export default function ProfilePage() {
  const profile = useOwnProfile();
  return (
    <LoadingWrapper loading={profile.isPending} error={profile.error} message={MSG.loading.loading}>
      {profile.data && <ProfileScreen profile={profile.data} />}
    </LoadingWrapper>
  );
}

function ProfileScreen({ profile }: { profile: OwnProfile }) {
  const incomplete = !isProfileComplete(profile);
  const [editing, setEditing] = useState(incomplete);
  const [welcome, setWelcome] = useState(incomplete);
  return (
    <Stack maw={880}>
      <PageHeader title={MSG.profile.title}>
        {!editing && (
          <Button leftSection={<Pencil size={16} />} onClick={() => setEditing(true)}>
            {MSG.profile.editProfile}
          </Button>
        )}
      </PageHeader>
      {editing ? (
        <>
          <ProfileForm profile={profile} onDone={() => setEditing(false)} />
          <DangerZone />
        </>
      ) : (
        <>
          <ProfileView profile={profile} />
          <NotificationSettings profile={profile} />
          <PushSettings />
          <SecuritySection />
          <BlockedStudents />
          <YourDataSection />
        </>
      )}
      <WelcomeModal opened={welcome} onClose={() => setWelcome(false)} />
    </Stack>
  );
}
