import { useState } from 'react';
import { Alert, Button, Group, NumberInput, Paper, Stack, Title } from '@mantine/core';
import { MSG } from '@studybuddy/shared/messages';
import { toast } from '../../ui/toast.ts';
import { useGenerate } from './flashcards-api.ts';
import { SourcePicker, type Source } from './source-picker.tsx';

const T = MSG.flashcards;
const page = (v: string | number) => (typeof v === 'number' && v > 0 ? v : undefined);

/** Makes a deck from a document or a range of its pages; says so when no card could be made. */
export function GeneratePanel({ onMade }: { onMade: (deckId: string) => void }) {
  const [source, setSource] = useState<Source>({ courseId: null, documentId: null });
  const [from, setFrom] = useState<string | number>('');
  const [to, setTo] = useState<string | number>('');
  const generate = useGenerate();
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    if (!source.documentId) return;
    generate.mutate(
      { documentId: source.documentId, fromPage: page(from), toPage: page(to) },
      {
        onSuccess: (r) => {
          toast.success(r.stoppedAtPage ? T.generatedPartly(r.made, r.stoppedAtPage) : T.generated(r.made));
          onMade(r.deck.id);
        },
      },
    );
  };
  return (
    <Paper withBorder p="md" component="form" onSubmit={submit} aria-labelledby="generate-title">
      <Stack gap="sm">
        <Title order={2} size="h4" id="generate-title">
          {T.generateTitle}
        </Title>
        <SourcePicker value={source} onChange={setSource} />
        <Group grow wrap="wrap">
          <NumberInput label={T.fromPage} min={1} value={from} onChange={setFrom} allowDecimal={false} miw={120} />
          <NumberInput label={T.toPage} min={1} value={to} onChange={setTo} allowDecimal={false} miw={120} />
        </Group>
        {generate.isError && (
          <Alert color="red" role="alert" data-testid="generate-error">
            {generate.error.message}
          </Alert>
        )}
        <Button
          type="submit"
          disabled={!source.documentId}
          loading={generate.isPending}
          style={{ alignSelf: 'flex-start' }}
        >
          {T.generate}
        </Button>
      </Stack>
    </Paper>
  );
}
