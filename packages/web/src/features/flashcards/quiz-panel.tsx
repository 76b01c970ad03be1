import { useState } from 'react';
import { Alert, Anchor, Button, Group, NumberInput, Paper, Radio, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { FLASHCARD_LIMITS, type Quiz, type QuizResult } from '@studybuddy/shared/flashcards';
import { MSG } from '@studybuddy/shared/messages';
import { ROUTES } from '@studybuddy/shared/routes';
import { answerQuiz, startQuiz } from './flashcards-api.ts';
import { SourcePicker, type Source } from './source-picker.tsx';

const T = MSG.flashcards;

function Score({
  quiz,
  result,
  source,
  onAgain,
}: {
  quiz: Quiz;
  result: QuizResult;
  source: Source;
  onAgain: () => void;
}) {
  const pageLink = (page: number) =>
    `${ROUTES.courses}?course=${encodeURIComponent(source.courseId ?? '')}&doc=${encodeURIComponent(quiz.documentId)}&page=${page}`;
  return (
    <Stack data-testid="quiz-score">
      <Alert color={result.score === result.total ? 'green' : 'blue'} role="status">
        {T.score(result.score, result.total)}
      </Alert>
      {result.results.map((r, i) => (
        <Paper key={i} withBorder p="sm" data-testid="quiz-result" data-correct={r.correct}>
          <Stack gap={4}>
            <Text size="sm" c="dimmed">
              {T.questionOf(i + 1, result.total)} · {r.correct ? T.correct : T.wrong}
            </Text>
            <Text>{r.prompt}</Text>
            {!r.correct && (
              <>
                <Text size="sm">{T.youAnswered(r.given)}</Text>
                <Text size="sm" fw={600}>
                  {T.expected(r.expected)}
                </Text>
                <Anchor href={pageLink(r.page)} size="sm">
                  {T.openPage(r.page)}
                </Anchor>
              </>
            )}
          </Stack>
        </Paper>
      ))}
      <Button variant="default" onClick={onAgain} style={{ alignSelf: 'flex-start' }}>
        {T.newQuiz}
      </Button>
    </Stack>
  );
}

/** A practice quiz from a document: one question at a time, then the score with each wrong answer's page. */
export function QuizPanel() {
  const [source, setSource] = useState<Source>({ courseId: null, documentId: null });
  const [count, setCount] = useState<string | number>(5);
  const [answers, setAnswers] = useState<string[]>([]);
  const [at, setAt] = useState(0);
  const start = useMutation({ mutationFn: () => startQuiz(source.documentId!, Number(count) || 5) });
  const finish = useMutation({ mutationFn: (quiz: Quiz) => answerQuiz(quiz.id, answers) });
  const quiz = start.data;
  const reset = () => {
    start.reset();
    finish.reset();
    setAnswers([]);
    setAt(0);
  };

  if (quiz && finish.data) return <Score quiz={quiz} result={finish.data} source={source} onAgain={reset} />;
  if (quiz) {
    const q = quiz.questions[at]!;
    const last = at === quiz.questions.length - 1;
    const value = answers[at] ?? '';
    const set = (v: string) => setAnswers((a) => Object.assign([...a], { [at]: v }));
    return (
      <Paper
        withBorder
        p="md"
        component="form"
        data-testid="quiz-question"
        onSubmit={(e: React.FormEvent) => {
          e.preventDefault();
          if (last) finish.mutate(quiz);
          else setAt(at + 1);
        }}
      >
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            {quiz.documentName} · {T.questionOf(at + 1, quiz.questions.length)}
          </Text>
          <Text fw={600}>{q.prompt}</Text>
          {q.kind === 'choice' ? (
            <Radio.Group key={at} label={T.chooseAnswer} value={value} onChange={set}>
              <Stack gap="xs" mt="xs">
                {q.choices.map((c) => (
                  <Radio key={c} value={c} label={c} />
                ))}
              </Stack>
            </Radio.Group>
          ) : (
            <TextInput
              key={at}
              label={T.yourAnswer}
              value={value}
              onChange={(e) => set(e.currentTarget.value)}
              autoComplete="off"
            />
          )}
          {finish.isError && <Alert color="red">{finish.error.message}</Alert>}
          <Button type="submit" loading={finish.isPending} style={{ alignSelf: 'flex-start' }}>
            {last ? T.finish : T.next}
          </Button>
        </Stack>
      </Paper>
    );
  }
  return (
    <Paper
      withBorder
      p="md"
      component="form"
      aria-labelledby="quiz-title"
      onSubmit={(e: React.FormEvent) => {
        e.preventDefault();
        if (source.documentId) start.mutate();
      }}
    >
      <Stack gap="sm">
        <Title order={2} size="h4" id="quiz-title">
          {T.quizTitle}
        </Title>
        <Text size="sm" c="dimmed">
          {T.quizIntro}
        </Text>
        <SourcePicker value={source} onChange={setSource} />
        <NumberInput
          label={T.questions}
          min={FLASHCARD_LIMITS.quizMin}
          max={FLASHCARD_LIMITS.quizMax}
          value={count}
          onChange={setCount}
          allowDecimal={false}
          maw={160}
        />
        {start.isError && (
          <Alert color="red" role="alert" data-testid="quiz-error">
            {start.error.message}
          </Alert>
        )}
        <Group>
          <Button type="submit" disabled={!source.documentId} loading={start.isPending}>
            {T.startQuiz}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
