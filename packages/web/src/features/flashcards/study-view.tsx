import { useCallback, useEffect, useState } from 'react';
import { Alert, Button, Group, Kbd, Paper, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { RATINGS, type RatingName } from '@studybuddy/shared/flashcards';
import { MSG } from '@studybuddy/shared/messages';
import { toast } from '../../ui/toast.ts';
import { fetchStudy, useReview } from './flashcards-api.ts';

const T = MSG.flashcards;
const COLORS: Record<RatingName, string> = { again: 'red', hard: 'orange', good: 'green', easy: 'blue' };

/** Reviews the deck's due cards: Show answer (space), then Again/Hard/Good/Easy (keys 1–4). */
export function StudyView({ deckId }: { deckId: string }) {
  // Not under FLASHCARDS_KEY: a review refreshes the counts, not the batch being studied (it would skip a card).
  const batch = useQuery({ queryKey: ['flashcards-study', deckId], queryFn: () => fetchStudy(deckId) });
  const [index, setIndex] = useState(0);
  const [shown, setShown] = useState(false);
  const [reviewed, setReviewed] = useState(0);
  const review = useReview();
  const cards = batch.data?.cards ?? [];
  const card = cards[index];

  const rate = useCallback(
    (rating: RatingName) => {
      if (!card || !shown || review.isPending) return;
      review.mutate(
        { cardId: card.id, rating },
        {
          onSuccess: () => {
            setReviewed((n) => n + 1);
            setShown(false);
            setIndex((i) => i + 1);
          },
          onError: (err) => toast.error(err.message),
        },
      );
    },
    [card, shown, review],
  );

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const target = e.target as HTMLElement | null;
      if (target?.closest('input, textarea, select, [contenteditable="true"]') || e.ctrlKey || e.metaKey || e.altKey)
        return;
      if (e.key === ' ' && !shown) {
        e.preventDefault();
        setShown(true);
      }
      const n = Number(e.key);
      if (n >= 1 && n <= 4) rate(RATINGS[n - 1]!);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [rate, shown]);

  if (batch.isPending) return <Text c="dimmed">{T.generating}</Text>;
  if (batch.isError) return <Alert color="red">{batch.error.message}</Alert>;
  if (!card) {
    return (
      <Alert color="green" role="status" data-testid="study-done">
        {reviewed ? `${T.reviewed(reviewed)} ` : ''}
        {T.studyDone}
      </Alert>
    );
  }
  return (
    <Stack data-testid="study">
      <Text size="sm" c="dimmed">
        {T.cardOf(index + 1, cards.length)}
        {card.pageLabel ? ` · ${T.page(card.pageLabel)}` : ''}
      </Text>
      <Paper withBorder p="lg" data-testid="study-card">
        <Stack>
          <Text size="lg" fw={600} data-testid="card-front" style={{ whiteSpace: 'pre-wrap' }}>
            {card.front}
          </Text>
          {shown && (
            <Text size="lg" data-testid="card-back" style={{ whiteSpace: 'pre-wrap' }}>
              {card.back}
            </Text>
          )}
        </Stack>
      </Paper>
      {shown ? (
        <Group gap="xs" role="group" aria-label={T.shortcuts}>
          {RATINGS.map((r, i) => (
            <Button
              key={r}
              color={COLORS[r]}
              variant="light"
              onClick={() => rate(r)}
              loading={review.isPending}
              rightSection={<Kbd size="xs">{i + 1}</Kbd>}
            >
              {T[r]}
            </Button>
          ))}
        </Group>
      ) : (
        <Button
          onClick={() => setShown(true)}
          style={{ alignSelf: 'flex-start' }}
          rightSection={<Kbd size="xs">␣</Kbd>}
        >
          {T.showAnswer}
        </Button>
      )}
      <Text size="xs" c="dimmed">
        {T.shortcuts}
      </Text>
    </Stack>
  );
}
