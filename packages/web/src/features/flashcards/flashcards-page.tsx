import { Alert, Button, Group, Stack, Switch, Tabs, Text } from '@mantine/core';
import { ArrowLeft } from 'lucide-react';
import { useSearchParams } from 'react-router';
import { MSG } from '@studybuddy/shared/messages';
import { PageHeader } from '../../ui/page-header.tsx';
import { toast } from '../../ui/toast.ts';
import { DeckList } from './deck-list.tsx';
import { DeckView } from './deck-view.tsx';
import { useCreateDeck, useDecks, useSaveSettings, useSettings } from './flashcards-api.ts';
import { GeneratePanel } from './generate-panel.tsx';
import { QuizPanel } from './quiz-panel.tsx';
import { StudyView } from './study-view.tsx';

const T = MSG.flashcards;

/** /flashcards (issue 28): decks made from documents, shared decks, reviews with FSRS, and practice quizzes. */
export default function FlashcardsPage() {
  const [params, setParams] = useSearchParams();
  const deckId = params.get('deck');
  const studyId = params.get('study');
  const tab = params.get('tab') === 'quiz' ? 'quiz' : 'decks';
  const decks = useDecks();
  const settings = useSettings();
  const saveSettings = useSaveSettings();
  const create = useCreateDeck();
  const go = (next: Record<string, string>) => setParams(next);

  if (studyId || deckId) {
    return (
      <Stack maw={820}>
        <PageHeader title={T.title}>
          <Button variant="subtle" leftSection={<ArrowLeft size={16} />} onClick={() => go({})}>
            {T.backToDecks}
          </Button>
        </PageHeader>
        {studyId ? (
          <StudyView key={studyId} deckId={studyId} />
        ) : (
          <DeckView
            deckId={deckId!}
            onStudy={() => go({ study: deckId! })}
            onGone={(copy) => go(copy ? { deck: copy } : {})}
          />
        )}
      </Stack>
    );
  }

  return (
    <Stack maw={820}>
      <PageHeader title={T.title} />
      <Text c="dimmed">{T.intro}</Text>
      <Tabs value={tab} onChange={(v) => go(v === 'quiz' ? { tab: 'quiz' } : {})}>
        <Tabs.List>
          <Tabs.Tab value="decks">{T.myDecks}</Tabs.Tab>
          <Tabs.Tab value="quiz">{T.quizTitle}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="decks" pt="md">
          <Stack>
            {decks.data && (
              <Alert color={decks.data.due ? 'indigo' : 'gray'} role="status" data-testid="due-total">
                {decks.data.due ? T.dueToday(decks.data.due) : T.nothingDue}
              </Alert>
            )}
            <Group justify="space-between" wrap="wrap">
              <Switch
                label={T.reminderSetting}
                description={T.reminderHelp}
                checked={settings.data?.dailyReminder ?? true}
                disabled={!settings.data}
                onChange={(e) => {
                  const on = e.currentTarget.checked;
                  saveSettings.mutate(
                    { dailyReminder: on },
                    { onSuccess: () => toast.success(on ? T.reminderOn : T.reminderOff) },
                  );
                }}
              />
              <Button
                variant="default"
                loading={create.isPending}
                onClick={() => {
                  const name = window.prompt(T.deckName);
                  if (name?.trim())
                    create.mutate(name.trim(), {
                      onSuccess: (d) => go({ deck: d.id }),
                      onError: (e) => toast.error(e.message),
                    });
                }}
              >
                {T.newDeck}
              </Button>
            </Group>
            <GeneratePanel onMade={(id) => go({ deck: id })} />
            {decks.isError && <Alert color="red">{decks.error.message}</Alert>}
            {decks.data && (
              <DeckList
                decks={decks.data.decks}
                onOpen={(id) => go({ deck: id })}
                onStudy={(id) => go({ study: id })}
              />
            )}
          </Stack>
        </Tabs.Panel>
        <Tabs.Panel value="quiz" pt="md">
          <QuizPanel />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
