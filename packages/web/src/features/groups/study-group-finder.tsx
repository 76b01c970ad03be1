import { useState } from 'react';
import { Anchor, Badge, Button, Checkbox, Group, Select, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { UsersRound } from 'lucide-react';
import { MSG } from '@studybuddy/shared/messages';
import { STUDY_GROUPS_MSG } from '@studybuddy/shared/messages/study-groups';
import { freeTogetherLabel } from '@studybuddy/shared/schedule';
import { ApiRequestError } from '../../lib/api.ts';
import { TitledPanel } from '../../ui/titled-panel.tsx';
import { groupKeys } from './groups-api.ts';
import { studyGroupKeys, studyGroupsApi } from './study-groups-api.ts';

const M = STUDY_GROUPS_MSG.studyGroups;

/**
 * "Find a study group" on the match finder (issue 27 part 5): for one of the student's courses, three to five
 * classmates with the most free time in common, all ticked, invited to a new group in one step.
 */
export function StudyGroupFinder({ courses }: { courses: string[] }) {
  const client = useQueryClient();
  const [course, setCourse] = useState<string | null>(null);
  const [asked, setAsked] = useState<string | null>(null);
  const [unticked, setUnticked] = useState<Set<string>>(new Set());
  const [name, setName] = useState('');
  const suggestions = useQuery({
    queryKey: studyGroupKeys.suggestions(asked ?? ''),
    queryFn: () => studyGroupsApi.suggestions(asked!),
    enabled: asked !== null,
    staleTime: 0,
  });
  const classmates = suggestions.data?.classmates ?? [];
  const chosen = classmates.filter((c) => !unticked.has(c.id)).map((c) => c.id);
  const create = useMutation({
    mutationFn: () =>
      studyGroupsApi.create({ course: asked!, name: name.trim() || M.defaultName(asked!), inviteeIds: chosen }),
    onSuccess: () => void client.invalidateQueries({ queryKey: groupKeys.lists }),
  });

  if (!courses.length) {
    return <TitledPanel radius="lg" p="lg" gap="xs" title={M.title} intro={M.noCourses} />;
  }

  return (
    <TitledPanel radius="lg" p="lg" region title={M.title} intro={M.intro}>
      <Group align="flex-end" gap="sm">
        <Select
          label={M.course}
          placeholder={M.pickCourse}
          data={courses}
          value={course}
          onChange={setCourse}
          allowDeselect={false}
          style={{ flex: 1, minWidth: 200 }}
        />
        <Button
          leftSection={<UsersRound size={16} aria-hidden />}
          disabled={!course}
          onClick={() => {
            setAsked(course);
            setUnticked(new Set());
            setName(M.defaultName(course!));
            create.reset();
          }}
        >
          {M.find}
        </Button>
      </Group>
      {suggestions.error && (
        <Text c="red" size="sm" role="alert">
          {suggestions.error.message}
        </Text>
      )}
      {asked && suggestions.data && !classmates.length && (
        <Text size="sm" role="status">
          {M.noClassmates}
        </Text>
      )}
      {classmates.length > 0 && !create.data && (
        <Stack gap="xs">
          {classmates.map((c) => (
            <Group key={c.id} gap="xs" justify="space-between">
              <Checkbox
                label={c.name}
                checked={!unticked.has(c.id)}
                onChange={(e) => {
                  const next = new Set(unticked);
                  if (e.currentTarget.checked) next.delete(c.id);
                  else next.add(c.id);
                  setUnticked(next);
                }}
              />
              <Badge variant="light" radius="sm" tt="none">
                {c.freeTogether ? MSG.freeTime.together(freeTogetherLabel(c.freeTogether)) : M.noFreeTime}
              </Badge>
            </Group>
          ))}
          <TextInput label={M.groupName} value={name} onChange={(e) => setName(e.currentTarget.value)} />
          <Group justify="flex-end">
            <Button disabled={!chosen.length} loading={create.isPending} onClick={() => create.mutate()}>
              {M.invite(chosen.length)}
            </Button>
          </Group>
          {create.error && (
            <Text c="red" size="sm" role="alert">
              {create.error instanceof ApiRequestError ? create.error.message : M.failed}
            </Text>
          )}
        </Stack>
      )}
      {create.data && (
        <Group gap="sm">
          <Text size="sm" role="status">
            {M.invited(create.data.invited)}
          </Text>
          <Anchor component={Link} to={`/groups?group=${encodeURIComponent(create.data.groupId)}`} size="sm">
            {M.openGroup}
          </Anchor>
        </Group>
      )}
    </TitledPanel>
  );
}
