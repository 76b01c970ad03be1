import { ActionIcon, Anchor, Badge, Box, Card, Checkbox, Group, Stack, Text, ThemeIcon, Tooltip } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { ClipboardList, ExternalLink, Flame, HelpCircle, Layers, MessagesSquare, type LucideIcon } from 'lucide-react';
import { useNavigate } from 'react-router';
import { timeRemaining } from '@studybuddy/shared/coursework-filters';
import type { CourseworkItem, CourseworkType } from '@studybuddy/shared/lms';
import { MSG } from '@studybuddy/shared/messages';
import { ROUTES } from '@studybuddy/shared/routes';
import { api } from '../../lib/api.ts';
import { formatWhen } from '../../lib/date-format.ts';
import { toast } from '../../ui/toast.ts';

const ICONS: Record<CourseworkType, LucideIcon> = {
  assignment: ClipboardList,
  quiz: HelpCircle,
  discussion: MessagesSquare,
  module_item: Layers,
};
const BADGE: Record<CourseworkType, string> = {
  assignment: 'indigo',
  quiz: 'grape',
  discussion: 'teal',
  module_item: 'gray',
};

interface Props {
  item: CourseworkItem;
  courseName: string;
  color: string;
  now: Date;
  /** Export mode (calendar): no flame button; the card toggles its selection. */
  exportMode?: boolean;
  selected?: boolean;
  onToggle?: () => void;
}

function statusText(item: CourseworkItem): string {
  if (item.is_graded && item.grade !== null) return MSG.coursework.graded(item.grade);
  return item.submitted ? MSG.coursework.submitted : MSG.coursework.notSubmitted;
}

/** Opens (creates or joins) the item's hot group, then goes to it. */
function HotGroupButton({ item }: { item: CourseworkItem }) {
  const navigate = useNavigate();
  const open = useMutation({
    mutationFn: () =>
      api<{ id: string }>('/api/hot-groups', { body: { courseId: item.course_id, itemId: item.id, name: item.name } }),
    onSuccess: ({ id }) => void navigate(`${ROUTES.groups}?groupIdToOpen=${encodeURIComponent(id)}`),
    onError: (err) => toast.error(err.message),
  });
  const label = MSG.coursework.openHotGroup(item.name);
  return (
    <Tooltip label={label} withArrow>
      <ActionIcon
        variant="light"
        color="orange"
        aria-label={label}
        loading={open.isPending}
        onClick={() => open.mutate()}
      >
        <Flame size={18} aria-hidden />
      </ActionIcon>
    </Tooltip>
  );
}

export function CourseworkCard({ item, courseName, color, now, exportMode, selected, onToggle }: Props) {
  const Icon = ICONS[item.type];
  const typeLabel = MSG.coursework.types[item.type];
  const left = item.due_date ? timeRemaining(item.due_date, now) : null;
  // Only items with a due date can go to a calendar.
  const selectable = !!exportMode && !!item.due_date;
  return (
    <Card
      withBorder
      padding="md"
      radius="md"
      style={{
        borderLeft: `5px solid ${color}`,
        cursor: selectable ? 'pointer' : undefined,
        opacity: exportMode && !selectable ? 0.6 : undefined,
        flex: 1,
      }}
      onClick={selectable ? onToggle : undefined}
      data-testid="coursework-card"
      aria-label={`${typeLabel}: ${item.name}`}
      component="article"
    >
      <Stack gap={8} h="100%">
        <Group justify="space-between" wrap="nowrap" align="flex-start" gap="xs">
          <Group gap="sm" wrap="nowrap" align="flex-start" style={{ minWidth: 0 }}>
            <ThemeIcon variant="light" color={BADGE[item.type]} size="lg" aria-hidden>
              <Icon size={18} />
            </ThemeIcon>
            <Box style={{ minWidth: 0 }}>
              <Text fw={700} lh={1.3} style={{ overflowWrap: 'anywhere' }} component="h2" size="md">
                {item.name}
              </Text>
              <Group gap={6} wrap="nowrap">
                <Box w={8} h={8} style={{ borderRadius: 8, background: color, flex: 'none' }} aria-hidden />
                <Text size="sm" c="dimmed" truncate>
                  {courseName}
                </Text>
              </Group>
            </Box>
          </Group>
          {exportMode ? (
            <Checkbox
              checked={!!selected}
              onChange={onToggle}
              disabled={!selectable}
              onClick={(e) => e.stopPropagation()}
              aria-label={selectable ? `Select ${item.name}` : `${item.name}: ${MSG.calendar.noDueDateHint}`}
            />
          ) : (
            <HotGroupButton item={item} />
          )}
        </Group>
        <Group gap="xs">
          <Badge color={BADGE[item.type]} variant="light" c="bright">
            {typeLabel}
          </Badge>
          <Badge color={item.is_graded || item.submitted ? 'green' : 'gray'} variant="outline" c="bright">
            {statusText(item)}
          </Badge>
        </Group>
        <Stack gap={2}>
          <Text size="sm">
            {item.due_date ? MSG.coursework.due(formatWhen(item.due_date, { now })) : MSG.coursework.noDueDate}
          </Text>
          {item.due_date && (
            <Text size="sm" fw={600} c={left ? undefined : 'var(--mantine-color-error)'}>
              {left ? MSG.coursework.timeLeft(left) : MSG.coursework.pastDue}
            </Text>
          )}
          <Text size="sm" c="dimmed">
            {item.points_possible !== null ? MSG.coursework.points(item.points_possible) : MSG.coursework.noPoints}
          </Text>
        </Stack>
        {item.html_url && (
          <Anchor
            href={item.html_url}
            target="_blank"
            rel="noopener noreferrer"
            size="sm"
            mt="auto"
            onClick={(e) => e.stopPropagation()}
          >
            <Group gap={4} component="span">
              {MSG.coursework.view(typeLabel)}
              <ExternalLink size={14} aria-hidden />
            </Group>
          </Anchor>
        )}
      </Stack>
    </Card>
  );
}
