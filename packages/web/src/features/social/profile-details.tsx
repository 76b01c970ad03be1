import { Badge, Group, Stack, Text, Title } from '@mantine/core';
import { GraduationCap, School } from 'lucide-react';
import { MSG } from '@studybuddy/shared/messages';
import type { PublicProfile } from '@studybuddy/shared/social';

/** Name, college, major, year, shared courses and bio of another student (match card and profile modal). */
export function ProfileDetails({ profile, headingOrder = 2 }: { profile: PublicProfile; headingOrder?: 2 | 3 }) {
  return (
    <Stack gap="sm">
      <div>
        <Title order={headingOrder} size="h3">
          {profile.name}
        </Title>
        <Group gap="md" mt={4} c="dimmed">
          <Group gap={4}>
            <School size={16} aria-hidden />
            <Text size="sm">{profile.college}</Text>
          </Group>
          <Group gap={4}>
            <GraduationCap size={16} aria-hidden />
            <Text size="sm">
              {profile.major} · {profile.year}
            </Text>
          </Group>
        </Group>
      </div>
      <div>
        <Text fw={600} size="sm" mb={4}>
          {MSG.match.sharedCourses}
        </Text>
        {profile.sharedCourses.length ? (
          <Group gap={6}>
            {profile.sharedCourses.map((c) => (
              <Badge key={c} variant="light" radius="sm" tt="none">
                {c}
              </Badge>
            ))}
          </Group>
        ) : (
          <Text size="sm" c="dimmed">
            {MSG.match.noSharedCourses}
          </Text>
        )}
      </div>
      <div>
        <Text fw={600} size="sm" mb={4}>
          {MSG.match.bio}
        </Text>
        <Text size="sm" style={{ whiteSpace: 'pre-wrap' }} c={profile.bio.trim() ? undefined : 'dimmed'}>
          {profile.bio.trim() || MSG.match.noBio}
        </Text>
      </div>
    </Stack>
  );
}
