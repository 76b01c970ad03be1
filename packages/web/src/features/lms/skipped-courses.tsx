import { Alert, List, Text } from '@mantine/core';
import { EyeOff } from 'lucide-react';
import type { SkippedCourse } from '@studybuddy/shared/lms';
import { MSG } from '@studybuddy/shared/messages';

/** Courses where Canvas refused some item types (course id and the skipped types, requirements §2). */
export function SkippedCourses({ skipped, names }: { skipped: SkippedCourse[]; names: Record<string, string> }) {
  if (!skipped.length) return null;
  return (
    <Alert
      color="yellow"
      variant="light"
      icon={<EyeOff size={18} aria-hidden />}
      title={MSG.coursework.skippedTitle}
      aria-label={MSG.coursework.skippedTitle}
      role="region"
      styles={{ title: { color: 'var(--mantine-color-bright)' } }}
    >
      <Text size="sm" mb={6}>
        {MSG.coursework.skippedNote}
      </Text>
      <List size="sm" spacing={2}>
        {skipped.map((s) => (
          <List.Item key={s.course_id}>
            {MSG.coursework.skippedEntry(s.course_id, s.skipped_types.map((t) => MSG.coursework.types[t]).join(', '))}
            {names[s.course_id] ? ` (${names[s.course_id]})` : ''}
          </List.Item>
        ))}
      </List>
    </Alert>
  );
}
