import { useMemo, useState, type ReactNode } from 'react';
import {
  Badge,
  Box,
  Group,
  Paper,
  ScrollArea,
  SegmentedControl,
  Select,
  Stack,
  Switch,
  Text,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { MSG } from '@studybuddy/shared/messages';
import type { FindATimeResult, ProposedSlot } from '@studybuddy/shared/schedule';
import { LoadingWrapper } from '../../ui/loading-wrapper.tsx';
import { scheduleApi, scheduleKeys, type FindATimeTarget } from './schedule-api.ts';
import { halfHourLabel } from './week-labels.ts';
import classes from './find-a-time.module.css';

const LENGTHS = [30, 60, 90, 120, 180];
const SKIP_HOURS = ['12', '24', '48'];

interface FindATimeProps {
  target: FindATimeTarget;
  /** Shown beside each proposed slot (study sessions: "Create session from this slot"). */
  slotAction?: (slot: ProposedSlot) => ReactNode;
}

const dayKey = (d: Date) => `${d.getFullYear()}-${d.getMonth()}-${d.getDate()}`;
const slotLabel = (s: ProposedSlot) => {
  const start = new Date(s.start);
  const end = new Date(s.end);
  const day = start.toLocaleDateString(undefined, { weekday: 'short', day: 'numeric', month: 'short' });
  const t = (d: Date) => d.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
  return `${day}, ${t(start)}–${t(end)}`;
};

/** The heat map laid out in the viewer's local days (columns) and half hours (rows). */
function heatColumns(result: FindATimeResult) {
  const start = Date.parse(result.windowStart);
  const days = new Map<string, { label: string; cells: (number | null)[] }>();
  result.counts.forEach((count, i) => {
    const at = new Date(start + i * result.cellMinutes * 60_000);
    const key = dayKey(at);
    let day = days.get(key);
    if (!day) {
      day = {
        label: at.toLocaleDateString(undefined, { weekday: 'short', day: 'numeric' }),
        cells: new Array<number | null>(48).fill(null),
      };
      days.set(key, day);
    }
    day.cells[at.getHours() * 2 + Math.floor(at.getMinutes() / 30)] = count;
  });
  return [...days.values()];
}

/**
 * Find a time (issue 27 part 2): how many of the group (or the two friends) are free in each half hour of the next
 * two weeks, and the three best slots of the length asked for. Counts only: never whose time.
 */
export function FindATime({ target, slotAction }: FindATimeProps) {
  const [length, setLength] = useState('60');
  const [skip, setSkip] = useState(false);
  const [skipHours, setSkipHours] = useState('24');
  const skipDue = skip ? Number(skipHours) : 0;
  const query = useQuery({
    queryKey: scheduleKeys.findTime(target, Number(length), skipDue),
    queryFn: () => scheduleApi.findATime(target, Number(length), skipDue),
  });
  const columns = useMemo(() => (query.data ? heatColumns(query.data) : []), [query.data]);
  const of = query.data?.memberCount ?? 0;

  return (
    <Stack gap="sm">
      <Text size="sm">{MSG.findTime.intro}</Text>
      <Group wrap="wrap" align="flex-end">
        <Stack gap={4}>
          <Text size="sm" fw={500} id="find-time-length">
            {MSG.findTime.length}
          </Text>
          <SegmentedControl
            aria-labelledby="find-time-length"
            value={length}
            onChange={setLength}
            data={LENGTHS.map((m) => ({ value: String(m), label: MSG.findTime.lengthOption(m) }))}
          />
        </Stack>
        {query.data?.canSkipDueDates && (
          <Group gap="xs" align="flex-end">
            <Switch label={MSG.findTime.skipDue} checked={skip} onChange={(e) => setSkip(e.currentTarget.checked)} />
            {skip && (
              <Select
                label={MSG.findTime.skipDueHours}
                data={SKIP_HOURS}
                value={skipHours}
                onChange={(v) => v && setSkipHours(v)}
                allowDeselect={false}
                w={120}
              />
            )}
          </Group>
        )}
      </Group>
      <LoadingWrapper loading={query.isPending} error={query.error} message={MSG.findTime.loading}>
        {query.data && (
          <>
            <Paper withBorder p="sm">
              <Title order={3} size="h5" mb="xs">
                {MSG.findTime.proposals}
              </Title>
              {query.data.slots.length === 0 ? (
                <Text size="sm" c="dimmed">
                  {MSG.findTime.noProposal}
                </Text>
              ) : (
                <Stack gap="xs" component="ol" className={classes.proposals}>
                  {query.data.slots.map((s) => (
                    <Group
                      key={s.start}
                      component="li"
                      justify="space-between"
                      wrap="wrap"
                      gap="xs"
                      data-testid="proposed-slot"
                    >
                      <Group gap="xs">
                        <Text size="sm" fw={500}>
                          {slotLabel(s)}
                        </Text>
                        <Badge variant="light">{MSG.findTime.slotFree(s.freeCount, s.memberCount)}</Badge>
                      </Group>
                      {slotAction?.(s)}
                    </Group>
                  ))}
                </Stack>
              )}
            </Paper>
            <ScrollArea type="auto" offsetScrollbars>
              <Box
                className={classes.heat}
                role="img"
                aria-label={MSG.findTime.heatLabel}
                style={{ gridTemplateColumns: `3rem repeat(${columns.length}, minmax(1.8rem, 1fr))` }}
              >
                <span />
                {columns.map((c) => (
                  <span key={c.label} className={classes.dayHead}>
                    {c.label}
                  </span>
                ))}
                {Array.from({ length: 48 }, (_, row) => (
                  <HeatRow key={row} row={row} columns={columns} of={of} />
                ))}
              </Box>
            </ScrollArea>
          </>
        )}
      </LoadingWrapper>
    </Stack>
  );
}

function HeatRow({ row, columns, of }: { row: number; columns: ReturnType<typeof heatColumns>; of: number }) {
  return (
    <>
      <span className={classes.time}>{row % 2 === 0 ? halfHourLabel(row) : ''}</span>
      {columns.map((c) => {
        const count = c.cells[row];
        const share = count === null || count === undefined || !of ? null : count / of;
        return (
          <span
            key={c.label}
            className={classes.cell}
            title={
              count === null ? undefined : MSG.findTime.heatCell(`${c.label} ${halfHourLabel(row)}`, count ?? 0, of)
            }
            style={share === null ? undefined : { opacity: share === 0 ? 1 : 0.25 + 0.75 * share }}
            data-level={share === null ? 'none' : share === 0 ? 'zero' : 'some'}
          />
        );
      })}
    </>
  );
}
