import { useState } from 'react';
import { Alert, Button, Group, Pill, Stack, Text, TextInput } from '@mantine/core';
import { Plus } from 'lucide-react';
import { LIMITS } from '@studybuddy/shared/limits';
import { MSG } from '@studybuddy/shared/messages';
import { PROFILE_LIMITS } from '@studybuddy/shared/profile';
import type { CourseRef } from '@studybuddy/shared/session';

interface Props {
  courses: CourseRef[];
  onChange: (courses: CourseRef[]) => void;
}

const key = (name: string) => name.trim().replace(/\s+/g, ' ').toLowerCase();

/** Courses of the profile, at most 10 (requirements §5); duplicates (ignoring case and spaces) are not added twice. */
export function CoursesEditor({ courses, onChange }: Props) {
  const [draft, setDraft] = useState('');
  const [error, setError] = useState<string | null>(null);

  const add = () => {
    const name = draft.trim().replace(/\s+/g, ' ');
    if (!name) return;
    if (courses.length >= LIMITS.coursesPerProfile) return setError(MSG.profile.maxCourses);
    if (courses.some((c) => key(c.name) === key(name))) return setError(MSG.profile.duplicateCourse);
    setError(null);
    // A local key until the profile is saved: the server gives a course it does not hold an id of its own.
    onChange([...courses, { id: `manual-${crypto.randomUUID()}`, name }]);
    setDraft('');
  };

  return (
    <Stack gap="xs">
      <Group align="flex-end" gap="xs" wrap="nowrap">
        <TextInput
          style={{ flex: 1 }}
          label={MSG.profile.fields.courses}
          description={`${courses.length}/${LIMITS.coursesPerProfile}`}
          placeholder="e.g. CS 31"
          value={draft}
          maxLength={PROFILE_LIMITS.courseNameMax}
          onChange={(e) => setDraft(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              add();
            }
          }}
        />
        <Button variant="default" leftSection={<Plus size={16} />} onClick={add}>
          {MSG.profile.addCourse}
        </Button>
      </Group>
      {courses.length ? (
        <Group gap={6} role="list" aria-label={MSG.profile.fields.courses}>
          {courses.map((c) => (
            <Pill
              key={c.id}
              size="md"
              role="listitem"
              withRemoveButton
              removeButtonProps={{ 'aria-label': MSG.profile.removeCourse(c.name) }}
              onRemove={() => {
                setError(null);
                onChange(courses.filter((x) => x.id !== c.id));
              }}
            >
              {c.name}
            </Pill>
          ))}
        </Group>
      ) : (
        <Text size="sm" c="dimmed">
          {MSG.profile.noCourses}
        </Text>
      )}
      {error && (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      )}
    </Stack>
  );
}
