import { Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { DeckSummary } from '@studybuddy/shared/flashcards';
import { MSG } from '@studybuddy/shared/messages';

const T = MSG.flashcards;

function DeckRow({ deck, onOpen, onStudy }: { deck: DeckSummary; onOpen: () => void; onStudy: () => void }) {
  return (
    <Paper withBorder p="sm" data-testid="deck" data-deck-id={deck.id}>
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Stack gap={2} style={{ minWidth: 0, flex: 1 }}>
          <Text fw={600} truncate>
            {deck.name}
          </Text>
          <Group gap="xs">
            <Text size="sm" c="dimmed">
              {T.cardCount(deck.cardCount)}
            </Text>
            {!deck.own && (
              <Text size="sm" c="dimmed">
                {T.sharedBy(deck.ownerName)}
              </Text>
            )}
            {deck.sharedWith.map((g) => (
              <Badge key={g.groupId} variant="outline" size="sm">
                {g.name}
              </Badge>
            ))}
          </Group>
        </Stack>
        <Group gap="xs">
          <Badge color={deck.due ? 'indigo' : 'gray'} variant="light" data-testid="deck-due">
            {T.dueCount(deck.due)}
          </Badge>
          <Button size="xs" variant="default" onClick={onOpen} aria-label={`${T.open} ${deck.name}`}>
            {T.open}
          </Button>
          <Button size="xs" onClick={onStudy} disabled={!deck.due} aria-label={T.studyDeck(deck.name)}>
            {T.study}
          </Button>
        </Group>
      </Group>
    </Paper>
  );
}

/** The student's decks, then those their groups share with them, each with its due count. */
export function DeckList({
  decks,
  onOpen,
  onStudy,
}: {
  decks: DeckSummary[];
  onOpen: (id: string) => void;
  onStudy: (id: string) => void;
}) {
  const own = decks.filter((d) => d.own);
  const shared = decks.filter((d) => !d.own);
  const section = (title: string, list: DeckSummary[], empty: string, testId: string) => (
    <Stack gap="xs" data-testid={testId}>
      <Title order={2} size="h4">
        {title}
      </Title>
      {list.length ? (
        list.map((d) => <DeckRow key={d.id} deck={d} onOpen={() => onOpen(d.id)} onStudy={() => onStudy(d.id)} />)
      ) : (
        <Text c="dimmed" size="sm">
          {empty}
        </Text>
      )}
    </Stack>
  );
  return (
    <Stack>
      {section(T.myDecks, own, T.noDecks, 'own-decks')}
      {section(T.sharedDecks, shared, T.noSharedDecks, 'shared-decks')}
    </Stack>
  );
}
