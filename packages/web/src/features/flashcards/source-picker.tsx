import { useMemo } from 'react';
import { Group, Select } from '@mantine/core';
import { MSG } from '@studybuddy/shared/messages';
import { useSession } from '../auth/index.ts';
import { useCourseDocuments } from './flashcards-api.ts';

const T = MSG.flashcards;

export interface Source {
  courseId: string | null;
  documentId: string | null;
}

/** A course of the profile, then one of its processed documents (or one that failed: the server says why). */
export function SourcePicker({ value, onChange }: { value: Source; onChange: (s: Source) => void }) {
  const session = useSession();
  const courses = useMemo(() => session.data?.profile?.courses ?? [], [session.data]);
  const docs = useCourseDocuments(value.courseId);
  const options = (docs.data?.documents ?? [])
    .filter((d) => d.status === 'done' || d.status === 'failed')
    .map((d) => ({ value: d.id, label: d.name }));
  return (
    <Group grow align="flex-start" wrap="wrap">
      <Select
        label={T.course}
        placeholder={T.pickCourse}
        data={courses.map((c) => ({ value: c.id, label: c.name }))}
        value={value.courseId}
        onChange={(courseId) => onChange({ courseId, documentId: null })}
        miw={200}
      />
      <Select
        label={T.document}
        placeholder={T.pickDocument}
        data={options}
        value={value.documentId}
        onChange={(documentId) => onChange({ ...value, documentId })}
        disabled={!value.courseId}
        nothingFoundMessage={T.noDocuments}
        description={value.courseId && docs.isSuccess && !options.length ? T.noDocuments : undefined}
        searchable
        miw={200}
      />
    </Group>
  );
}
