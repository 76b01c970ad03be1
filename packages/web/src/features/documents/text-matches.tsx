import { Paper, Stack, Text, Title, UnstyledButton } from '@mantine/core';
import { MSG } from '@studybuddy/shared/messages';
import type { TextFocus } from './document-text.tsx';
import { useCourseSearch } from './documents-api.ts';

/** Beyond the spec: where the search words occur in the text of the course's documents. */
export function TextMatches({
  courseId,
  query,
  onOpen,
}: {
  courseId: string;
  query: string;
  onOpen: (documentId: string, focus: TextFocus) => void;
}) {
  const search = useCourseSearch(courseId, query);
  const hits = search.data ?? [];
  if (query.length < 2 || hits.length === 0) return null;
  return (
    <Stack gap="xs" component="section" aria-labelledby="text-matches">
      <Title order={2} size="h5" id="text-matches" mt="sm">
        {MSG.courses.textMatches}
      </Title>
      {hits.map((h) => (
        <Paper key={`${h.documentId}-${h.citation.page}`} withBorder p="xs">
          <UnstyledButton
            w="100%"
            onClick={() =>
              onOpen(h.documentId, {
                page: h.citation.page,
                start: h.citation.start,
                end: h.citation.end,
                nonce: Date.now(),
              })
            }
          >
            <Text size="sm" fw={600}>
              {h.name} · {h.citation.label}
            </Text>
            <Text size="sm" c="dimmed" lineClamp={2}>
              {h.citation.passage}
            </Text>
          </UnstyledButton>
        </Paper>
      ))}
    </Stack>
  );
}
