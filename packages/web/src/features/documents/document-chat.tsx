import { useState } from 'react';
import { Alert, Blockquote, Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { MessageCircleQuestion, Quote } from 'lucide-react';
import { suggestedQuestions } from '@studybuddy/shared/documents';
import type { CitationDto, DocumentDetailDto } from '@studybuddy/shared/documents-api';
import { MSG } from '@studybuddy/shared/messages';
import { ApiRequestError } from '../../lib/api.ts';
import { useAskDocument } from './documents-api.ts';
import { ShortAnswer } from './short-answer.tsx';

function Citation({ citation, onShow }: { citation: CitationDto; onShow: (c: CitationDto) => void }) {
  return (
    <Blockquote p="xs" mt={6} icon={<Quote size={14} />} iconSize={24} color="indigo" data-testid="citation">
      <Text size="sm" style={{ whiteSpace: 'pre-wrap' }} lineClamp={8}>
        {citation.passage}
      </Text>
      <Button
        variant="subtle"
        size="compact-sm"
        mt={4}
        onClick={() => onShow(citation)}
        aria-label={MSG.courses.showInDocument(citation.label)}
      >
        {citation.label}
      </Button>
    </Blockquote>
  );
}

/** 'Ask Questions About This Document': example questions, the chat, and the question box (requirements §2, §5). */
export function DocumentChat({
  doc,
  busy,
  onShowCitation,
}: {
  doc: DocumentDetailDto;
  /** A summary is being generated (or the document is still processing). */
  busy: boolean;
  onShowCitation: (c: CitationDto) => void;
}) {
  const [question, setQuestion] = useState('');
  const [error, setError] = useState<string | null>(null);
  const ask = useAskDocument(doc.id);
  const disabled = busy || ask.isPending;

  const submit = (e?: React.FormEvent) => {
    e?.preventDefault();
    const q = question.trim();
    if (!q) {
      setError(MSG.courses.questionRequired);
      return;
    }
    setError(null);
    ask.mutate(q, {
      onSuccess: () => setQuestion(''),
    });
  };

  const failure = ask.error
    ? ask.error instanceof ApiRequestError && ask.error.status >= 400 && ask.error.status < 500
      ? MSG.courses.answerFailed(ask.error.message)
      : MSG.courses.questionError
    : null;

  return (
    <Stack gap="sm">
      <Title order={3} size="h5">
        {MSG.courses.askTitle}
      </Title>
      <Stack gap={4}>
        <Text size="sm" fw={600}>
          {MSG.courses.exampleQuestions}
        </Text>
        <Group gap={6}>
          {suggestedQuestions(doc.name, doc.type).map((q) => (
            <Button
              key={q}
              size="compact-sm"
              variant="light"
              radius="xl"
              onClick={() => setQuestion(q)}
              disabled={disabled}
            >
              {q}
            </Button>
          ))}
        </Group>
      </Stack>
      {doc.questions.length > 0 && (
        <Stack gap="xs" aria-live="polite" data-testid="qa-chat">
          {doc.questions.map((q) => (
            <Stack key={q.id} gap={4}>
              <Paper p="xs" bg="var(--sb-bubble-mine)" radius="md" style={{ alignSelf: 'flex-end', maxWidth: '90%' }}>
                <Text size="xs" fw={700} c="var(--sb-color-brand)">
                  {MSG.courses.you}
                </Text>
                <Text size="sm">{q.question}</Text>
              </Paper>
              <Paper p="xs" withBorder radius="md" style={{ maxWidth: '95%' }} data-testid="qa-answer">
                <Text size="xs" fw={700} c="dimmed">
                  {MSG.courses.assistant}
                </Text>
                {q.shortAnswer ? (
                  <>
                    <ShortAnswer answer={q.shortAnswer} citation={q.citations[0]} onShow={onShowCitation} />
                    {q.citations.length > 1 && (
                      <Text size="xs" c="dimmed" fw={600} mt="xs">
                        {MSG.answers.morePassages}
                      </Text>
                    )}
                    {q.citations.slice(1).map((c) => (
                      <Citation key={`${c.page}-${c.start}`} citation={c} onShow={onShowCitation} />
                    ))}
                  </>
                ) : (
                  <>
                    <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
                      {q.answer}
                    </Text>
                    {q.citations.map((c) => (
                      <Citation key={`${c.page}-${c.start}`} citation={c} onShow={onShowCitation} />
                    ))}
                  </>
                )}
              </Paper>
            </Stack>
          ))}
        </Stack>
      )}
      {failure && (
        <Alert color="red" role="alert">
          {failure}
        </Alert>
      )}
      <form onSubmit={submit} noValidate>
        <Group align="flex-start" gap="xs" wrap="nowrap">
          <TextInput
            label={MSG.courses.questionLabel}
            placeholder={MSG.courses.questionPlaceholder}
            value={question}
            onChange={(e) => setQuestion(e.currentTarget.value)}
            disabled={disabled}
            error={error}
            leftSection={<MessageCircleQuestion size={16} aria-hidden />}
            style={{ flex: 1 }}
          />
          <Button type="submit" disabled={disabled} mt={25}>
            {ask.isPending ? MSG.courses.thinking : MSG.courses.ask}
          </Button>
        </Group>
      </form>
    </Stack>
  );
}
