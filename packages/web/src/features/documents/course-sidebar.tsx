import { Anchor, NavLink, Paper, Stack, Text, Title } from '@mantine/core';
import { BookOpen } from 'lucide-react';
import { Link } from 'react-router';
import type { CourseRef } from '@studybuddy/shared/session';
import { MSG } from '@studybuddy/shared/messages';
import { ROUTES } from '@studybuddy/shared/routes';

/** 'Your Courses': the courses of the profile (or 'No courses found' with the way to add some). */
export function CourseSidebar({
  courses,
  selected,
  onSelect,
}: {
  courses: CourseRef[];
  selected: string | null;
  onSelect: (id: string) => void;
}) {
  return (
    <Paper withBorder p="sm" component="nav" aria-labelledby="your-courses">
      <Title order={2} size="h4" id="your-courses" px="xs" mb="xs">
        {MSG.courses.yourCourses}
      </Title>
      {courses.length === 0 ? (
        <Stack gap={4} px="xs">
          <Text fw={600}>{MSG.courses.noCourses}</Text>
          <Text size="sm" c="dimmed">
            {MSG.courses.noCoursesHelp}{' '}
            <Anchor component={Link} to={ROUTES.profile} size="sm">
              {MSG.shell.viewProfile}
            </Anchor>
          </Text>
        </Stack>
      ) : (
        <Stack gap={2}>
          {courses.map((c) => (
            <NavLink
              key={c.id}
              label={c.name}
              component="button"
              type="button"
              leftSection={<BookOpen size={16} aria-hidden />}
              active={c.id === selected}
              variant="filled"
              aria-current={c.id === selected ? 'page' : undefined}
              onClick={() => onSelect(c.id)}
            />
          ))}
        </Stack>
      )}
    </Paper>
  );
}
