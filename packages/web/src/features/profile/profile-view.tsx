import { Avatar, Badge, Group, Image, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { MSG } from '@studybuddy/shared/messages';
import type { OwnProfile } from '@studybuddy/shared/session';

/** Read-only profile (requirements §2 'Your Profile'). */
export function ProfileView({ profile }: { profile: OwnProfile }) {
  const details = [profile.major, profile.year].filter(Boolean).join(' · ');
  return (
    <Stack>
      <Paper withBorder p="lg">
        <Group gap="lg" wrap="wrap">
          <Avatar src={profile.profilePicture} size={112} radius={999} alt={MSG.profile.fields.picture} />
          <Stack gap={4} style={{ minWidth: 0 }}>
            <Title order={2} size="h3">
              {profile.name || profile.email}
            </Title>
            <Text c="dimmed">{profile.college}</Text>
            {details && <Text>{details}</Text>}
          </Stack>
        </Group>
      </Paper>
      <Paper withBorder p="lg">
        <Stack gap="md">
          <div>
            <Title order={3} size="h5" mb={4}>
              {MSG.profile.fields.bio}
            </Title>
            <Text style={{ whiteSpace: 'pre-wrap' }} c={profile.bio ? undefined : 'dimmed'}>
              {profile.bio || MSG.profile.noBio}
            </Text>
          </div>
          <div>
            <Title order={3} size="h5" mb={6}>
              {MSG.profile.fields.courses}
            </Title>
            {profile.courses.length ? (
              <Group gap={6}>
                {profile.courses.map((c) => (
                  <Badge key={c.id} variant="outline" size="lg" radius="sm" tt="none">
                    {c.name}
                  </Badge>
                ))}
              </Group>
            ) : (
              <Text c="dimmed">{MSG.profile.noCourses}</Text>
            )}
          </div>
          {profile.additionalImages.length > 0 && (
            <div>
              <Title order={3} size="h5" mb={6}>
                {MSG.profile.fields.additionalImages}
              </Title>
              <SimpleGrid cols={{ base: 2, xs: 4 }} spacing="sm">
                {profile.additionalImages.map((url, i) => (
                  <Image key={url} src={url} alt={`Additional image ${i + 1}`} radius="md" h={140} fit="cover" />
                ))}
              </SimpleGrid>
            </div>
          )}
        </Stack>
      </Paper>
    </Stack>
  );
}
