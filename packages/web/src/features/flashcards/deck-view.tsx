import { useState } from 'react';
import { ActionIcon, Alert, Badge, Button, Group, Paper, Select, Stack, Text, Textarea, Title } from '@mantine/core';
import { Pencil, Trash2 } from 'lucide-react';
import { cardInputSchema, type CardDto } from '@studybuddy/shared/flashcards';
import { MSG } from '@studybuddy/shared/messages';
import { TitledPanel } from '../../ui/titled-panel.tsx';
import { toast } from '../../ui/toast.ts';
import {
  useAddCard,
  useCopy,
  useDeck,
  useDeleteCard,
  useDeleteDeck,
  useEditCard,
  useGroups,
  useShare,
  useUnshare,
} from './flashcards-api.ts';

const T = MSG.flashcards;

/** Front and back of a card being written (a new one, or an edit). */
function CardForm({
  initial,
  submitLabel,
  onSubmit,
  onCancel,
  busy,
}: {
  initial: { front: string; back: string };
  submitLabel: string;
  onSubmit: (c: { front: string; back: string }) => void;
  onCancel?: () => void;
  busy: boolean;
}) {
  const [front, setFront] = useState(initial.front);
  const [back, setBack] = useState(initial.back);
  const [errors, setErrors] = useState<{ front?: string; back?: string }>({});
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const parsed = cardInputSchema.safeParse({ front, back });
    if (!parsed.success) {
      setErrors({
        front: front.trim() ? undefined : T.frontRequired,
        back: back.trim() ? undefined : T.backRequired,
      });
      return;
    }
    setErrors({});
    onSubmit(parsed.data);
    if (!onCancel) {
      setFront('');
      setBack('');
    }
  };
  return (
    <Stack gap="xs" component="form" onSubmit={submit}>
      <Textarea
        label={T.front}
        autosize
        minRows={1}
        value={front}
        onChange={(e) => setFront(e.currentTarget.value)}
        error={errors.front}
      />
      <Textarea
        label={T.back}
        autosize
        minRows={1}
        value={back}
        onChange={(e) => setBack(e.currentTarget.value)}
        error={errors.back}
      />
      <Group gap="xs">
        <Button type="submit" size="xs" loading={busy}>
          {submitLabel}
        </Button>
        {onCancel && (
          <Button size="xs" variant="default" onClick={onCancel}>
            {T.cancel}
          </Button>
        )}
      </Group>
    </Stack>
  );
}

function CardRow({ card, editable }: { card: CardDto; editable: boolean }) {
  const [editing, setEditing] = useState(false);
  const edit = useEditCard();
  const remove = useDeleteCard();
  if (editing) {
    return (
      <Paper withBorder p="sm">
        <CardForm
          initial={card}
          submitLabel={T.save}
          busy={edit.isPending}
          onCancel={() => setEditing(false)}
          onSubmit={(c) =>
            edit.mutate(
              { id: card.id, ...c },
              {
                onSuccess: () => (toast.success(T.cardSaved), setEditing(false)),
                onError: (e) => toast.error(e.message),
              },
            )
          }
        />
      </Paper>
    );
  }
  return (
    <Paper withBorder p="sm" data-testid="card">
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <Stack gap={4} style={{ minWidth: 0 }}>
          <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
            {card.front}
          </Text>
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {card.back}
          </Text>
          <Group gap="xs">
            <Badge size="xs" variant="light">
              {T.kind[card.kind]}
            </Badge>
            {card.pageLabel && (
              <Text size="xs" c="dimmed">
                {T.page(card.pageLabel)}
              </Text>
            )}
          </Group>
        </Stack>
        {editable && (
          <Group gap={4} wrap="nowrap">
            <ActionIcon variant="subtle" aria-label={T.editCard} onClick={() => setEditing(true)}>
              <Pencil size={16} />
            </ActionIcon>
            <ActionIcon
              variant="subtle"
              color="red"
              aria-label={T.deleteCard}
              loading={remove.isPending}
              onClick={() => remove.mutate(card.id, { onSuccess: () => toast.success(T.cardDeleted) })}
            >
              <Trash2 size={16} />
            </ActionIcon>
          </Group>
        )}
      </Group>
    </Paper>
  );
}

function SharePanel({ deckId, sharedWith }: { deckId: string; sharedWith: { groupId: string; name: string }[] }) {
  const groups = useGroups();
  const [groupId, setGroupId] = useState<string | null>(null);
  const share = useShare(deckId);
  const unshare = useUnshare(deckId);
  const options = (groups.data?.groups ?? [])
    .filter((g) => !sharedWith.some((s) => s.groupId === g.id))
    .map((g) => ({ value: g.id, label: g.name }));
  return (
    <TitledPanel p="md" gap="xs" title={T.shareTitle} intro={T.shareIntro}>
      <Group align="flex-end" wrap="wrap">
        <Select
          label={T.group}
          placeholder={options.length ? T.pickGroup : T.noGroups}
          data={options}
          value={groupId}
          onChange={setGroupId}
          miw={220}
        />
        <Button
          disabled={!groupId}
          loading={share.isPending}
          onClick={() =>
            groupId &&
            share.mutate(groupId, {
              onSuccess: () => {
                toast.success(T.shared(options.find((o) => o.value === groupId)?.label ?? ''));
                setGroupId(null);
              },
              onError: (e) => toast.error(e.message),
            })
          }
        >
          {T.share}
        </Button>
      </Group>
      {sharedWith.length > 0 && (
        <Group gap="xs" aria-label={T.sharedWith}>
          {sharedWith.map((g) => (
            <Button
              key={g.groupId}
              size="xs"
              variant="outline"
              aria-label={T.unshare(g.name)}
              onClick={() => unshare.mutate(g.groupId, { onSuccess: () => toast.success(T.unshared(g.name)) })}
            >
              {g.name} ×
            </Button>
          ))}
        </Group>
      )}
    </TitledPanel>
  );
}

/** A deck's cards: the owner edits, deletes, adds and shares; a member studies or copies it. */
export function DeckView({
  deckId,
  onStudy,
  onGone,
}: {
  deckId: string;
  onStudy: () => void;
  onGone: (copyId?: string) => void;
}) {
  const deck = useDeck(deckId);
  const add = useAddCard(deckId);
  const copy = useCopy();
  const remove = useDeleteDeck();
  if (deck.isPending) return null;
  if (deck.isError) return <Alert color="red">{deck.error.message}</Alert>;
  const d = deck.data;
  return (
    <Stack>
      <Group justify="space-between" wrap="wrap">
        <Stack gap={0}>
          <Title order={2} size="h3">
            {d.name}
          </Title>
          <Text size="sm" c="dimmed">
            {T.cardCount(d.cardCount)} · {T.dueCount(d.due)}
            {!d.own ? ` · ${T.sharedBy(d.ownerName)}` : ''}
          </Text>
        </Stack>
        <Group gap="xs">
          <Button onClick={onStudy} disabled={!d.due}>
            {T.study}
          </Button>
          {!d.own && (
            <Button
              variant="default"
              loading={copy.isPending}
              onClick={() => copy.mutate(d.id, { onSuccess: (c) => (toast.success(T.copied), onGone(c.id)) })}
            >
              {T.copy}
            </Button>
          )}
          {d.own && (
            <Button
              variant="subtle"
              color="red"
              onClick={() =>
                window.confirm(T.deleteDeckConfirm) &&
                remove.mutate(d.id, { onSuccess: () => (toast.success(T.deckDeleted), onGone()) })
              }
            >
              {T.deleteDeck}
            </Button>
          )}
        </Group>
      </Group>
      {d.own ? <SharePanel deckId={d.id} sharedWith={d.sharedWith} /> : <Text size="sm">{T.readOnlyShared}</Text>}
      {d.own && (
        <Paper withBorder p="md">
          <Title order={2} size="h4" mb="xs">
            {T.addCard}
          </Title>
          <CardForm
            initial={{ front: '', back: '' }}
            submitLabel={T.addCard}
            busy={add.isPending}
            onSubmit={(c) => add.mutate(c, { onError: (e) => toast.error(e.message) })}
          />
        </Paper>
      )}
      <Stack gap="xs">
        {d.cards.map((c) => (
          <CardRow key={c.id} card={c} editable={d.own} />
        ))}
      </Stack>
    </Stack>
  );
}
