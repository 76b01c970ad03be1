import { Box, Button, Checkbox, Input, Popover, ScrollArea, Stack } from '@mantine/core';
import { ChevronDown } from 'lucide-react';
import { MSG } from '@studybuddy/shared/messages';
import { courseColor } from './course-colors.ts';

interface Props {
  courses: { id: string; name: string }[];
  selected: string[];
  onChange: (selected: string[]) => void;
}

/** 'All Courses' or 'N Selected', with an All Courses checkbox above one checkbox per course. */
export function CourseMultiSelect({ courses, selected, onChange }: Props) {
  const label = selected.length ? MSG.coursework.nSelected(selected.length) : MSG.coursework.allCourses;
  const ids = courses.map((c) => c.id);
  const toggle = (id: string) =>
    onChange(
      selected.includes(id) ? selected.filter((s) => s !== id) : ids.filter((c) => c === id || selected.includes(c)),
    );
  return (
    <Input.Wrapper label={MSG.coursework.courses} labelElement="div">
      <Popover position="bottom-start" shadow="md" trapFocus returnFocus width={320}>
        <Popover.Target>
          <Button
            variant="default"
            fullWidth
            justify="space-between"
            rightSection={<ChevronDown size={16} aria-hidden />}
            aria-label={`${MSG.coursework.courses}: ${label}`}
            fw={400}
          >
            {label}
          </Button>
        </Popover.Target>
        <Popover.Dropdown p="sm">
          <ScrollArea.Autosize mah={320} type="auto" offsetScrollbars>
            <Stack gap="xs" role="group" aria-label={MSG.coursework.courses}>
              <Checkbox
                label={MSG.coursework.allCourses}
                checked={selected.length === 0}
                onChange={() => onChange([])}
                fw={600}
              />
              {courses.map((c) => (
                <Checkbox
                  key={c.id}
                  checked={selected.includes(c.id)}
                  onChange={() => toggle(c.id)}
                  label={
                    <Box component="span" style={{ display: 'inline-flex', alignItems: 'center', gap: 6 }}>
                      <Box
                        component="span"
                        w={8}
                        h={8}
                        style={{ borderRadius: 8, background: courseColor(c.id, ids), flex: 'none' }}
                        aria-hidden
                      />
                      {c.name}
                    </Box>
                  }
                />
              ))}
            </Stack>
          </ScrollArea.Autosize>
        </Popover.Dropdown>
      </Popover>
    </Input.Wrapper>
  );
}
