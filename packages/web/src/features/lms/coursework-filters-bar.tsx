import { Box, Select, Stack, TextInput } from '@mantine/core';
import { Search } from 'lucide-react';
import type { CourseworkPreferences } from '@studybuddy/shared/lms';
import { MSG } from '@studybuddy/shared/messages';
import { CourseMultiSelect } from './course-multi-select.tsx';
import { DateRangeFilter } from './date-range-filter.tsx';
import classes from './coursework-filters-bar.module.css';

interface Props {
  prefs: CourseworkPreferences;
  update: (changes: Partial<CourseworkPreferences>) => void;
  search: string;
  onSearch: (value: string) => void;
  courses: { id: string; name: string }[];
  groups: string[];
}

const ALL = '__all_groups__';
const STATUS = (['all', 'upcoming', 'past'] as const).map((value) => ({ value, label: MSG.coursework.status[value] }));
const SORTS = (['dueAsc', 'dueDesc', 'course'] as const).map((value) => ({ value, label: MSG.coursework.sort[value] }));

export function CourseworkFiltersBar({ prefs, update, search, onSearch, courses, groups }: Props) {
  return (
    <Stack gap="sm">
      <TextInput
        aria-label={MSG.coursework.searchLabel}
        placeholder={MSG.coursework.search}
        leftSection={<Search size={16} aria-hidden />}
        value={search}
        onChange={(e) => onSearch(e.currentTarget.value)}
        type="search"
      />
      <Box className={classes.grid}>
        <DateRangeFilter
          startDate={prefs.startDate}
          endDate={prefs.endDate}
          active={prefs.dateRangeActive}
          onChange={(range) => update(range)}
        />
        <CourseMultiSelect
          courses={courses}
          selected={prefs.selectedCourses}
          onChange={(selectedCourses) => update({ selectedCourses })}
        />
        <Select
          label={MSG.coursework.group}
          data={[{ value: ALL, label: MSG.coursework.allGroups }, ...groups.map((g) => ({ value: g, label: g }))]}
          value={prefs.selectedGroup || ALL}
          onChange={(v) => update({ selectedGroup: !v || v === ALL ? '' : v })}
          disabled={prefs.selectedCourses.length === 0}
          allowDeselect={false}
        />
        <Select
          label={MSG.coursework.statusLabel}
          data={STATUS}
          value={prefs.filter}
          onChange={(v) => v && update({ filter: v as CourseworkPreferences['filter'] })}
          allowDeselect={false}
        />
        <Select
          label={MSG.coursework.sortLabel}
          data={SORTS}
          value={prefs.sortBy}
          onChange={(v) => v && update({ sortBy: v as CourseworkPreferences['sortBy'] })}
          allowDeselect={false}
        />
      </Box>
    </Stack>
  );
}
