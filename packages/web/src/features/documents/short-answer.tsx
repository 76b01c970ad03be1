import { Blockquote, Button, Group, Mark, Stack, Text } from '@mantine/core';
import { Quote } from 'lucide-react';
import type { CitationDto, ShortAnswerDto } from '@studybuddy/shared/documents-api';
import { MSG } from '@studybuddy/shared/messages';

/**
 * An answer short answer first (issue 28): the words that answer, then the sentence they come from with the
 * words highlighted and its page, which opens the document there.
 */
export function ShortAnswer({
  answer,
  citation,
  onShow,
}: {
  answer: ShortAnswerDto;
  citation: CitationDto | undefined;
  onShow: (c: CitationDto) => void;
}) {
  const { sentence, start, end } = answer;
  return (
    <Stack gap={4}>
      <Text size="xs" c="dimmed" fw={600}>
        {MSG.answers.shortAnswer}
      </Text>
      <Text size="lg" fw={700} lh={1.3} data-testid="short-answer">
        {answer.text}
      </Text>
      <Blockquote p="xs" mt="xs" icon={<Quote size={14} />} iconSize={24} color="indigo" data-testid="answer-sentence">
        <Text size="sm">
          {sentence.slice(0, start)}
          <Mark color="yellow" fw={600} data-testid="answer-highlight">
            {sentence.slice(start, end)}
          </Mark>
          {sentence.slice(end)}
        </Text>
        {citation && (
          <Group gap={4} mt={4}>
            <Text size="xs" c="dimmed">
              {MSG.answers.from}
            </Text>
            <Button
              variant="subtle"
              size="compact-sm"
              onClick={() => onShow(citation)}
              aria-label={MSG.courses.showInDocument(citation.label)}
            >
              {citation.label}
            </Button>
          </Group>
        )}
      </Blockquote>
    </Stack>
  );
}
