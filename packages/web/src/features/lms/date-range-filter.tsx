import { useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { Button, Group, Input, Popover, SimpleGrid, Stack, Text, UnstyledButton } from '@mantine/core';
import { CalendarRange } from 'lucide-react';
import { localDay, pickerDays, pickRange } from '@studybuddy/shared/coursework-filters';
import { MSG } from '@studybuddy/shared/messages';
import { formatDay } from '../../lib/date-format.ts';
import classes from './date-range-filter.module.css';

interface Props {
  startDate: string | null;
  endDate: string | null;
  active: boolean;
  onChange: (range: { startDate: string | null; endDate: string | null; dateRangeActive: boolean }) => void;
}

const fmt = (day: string) => formatDay(day, 'short');

/**
 * Requirements §4/§9 date range: 35 days from the start of the current week, days before today disabled. The first
 * click sets the start, the second the end (swapped if earlier), which closes the picker and turns the filter
 * on; Clear resets it. Arrow keys move between days.
 */
export function DateRangeFilter({ startDate, endDate, active, onChange }: Props) {
  const [opened, setOpened] = useState(false);
  const [draft, setDraft] = useState<{ startDate: string | null; endDate: string | null }>({
    startDate: null,
    endDate: null,
  });
  const today = localDay(new Date());
  const days = useMemo(() => pickerDays(new Date()), []);
  const [focus, setFocus] = useState(0);
  const grid = useRef<HTMLDivElement>(null);
  const labelId = useId();

  const open = () => {
    setDraft({ startDate: null, endDate: null });
    const first = days.findIndex((d) => d >= (startDate && active ? startDate : today));
    setFocus(first < 0 ? days.indexOf(today) : first);
    setOpened(true);
  };

  const pick = (day: string) => {
    const next = pickRange(draft, day);
    setDraft({ startDate: next.startDate, endDate: next.endDate });
    if (next.complete) {
      onChange({ startDate: next.startDate, endDate: next.endDate, dateRangeActive: true });
      setOpened(false);
    }
  };

  const move = (e: KeyboardEvent, index: number) => {
    const step = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -7, ArrowDown: 7 }[e.key];
    if (step === undefined) return;
    e.preventDefault();
    let next = index + step;
    while (next >= 0 && next < days.length && days[next]! < today) next += step > 0 ? 1 : -1;
    if (next < 0 || next >= days.length) return;
    setFocus(next);
    grid.current?.querySelectorAll<HTMLButtonElement>('button')[next]?.focus();
  };

  const shown = opened ? draft : { startDate, endDate };
  const summary = active && startDate && endDate ? `${fmt(startDate)} – ${fmt(endDate)}` : MSG.coursework.anyDate;

  return (
    <Input.Wrapper label={MSG.coursework.dateRange} labelElement="div" id={labelId}>
      <Popover opened={opened} onChange={setOpened} position="bottom-start" shadow="md" trapFocus returnFocus>
        <Popover.Target>
          <Button
            variant="default"
            fullWidth
            justify="space-between"
            rightSection={<CalendarRange size={16} aria-hidden />}
            onClick={() => (opened ? setOpened(false) : open())}
            aria-label={`${MSG.coursework.dateRange}: ${summary}`}
            fw={400}
          >
            {summary}
          </Button>
        </Popover.Target>
        <Popover.Dropdown p="sm">
          <Stack gap="xs" w={280}>
            <Text size="sm" fw={600} aria-live="polite">
              {draft.startDate ? `${fmt(draft.startDate)} – ${MSG.coursework.pickEnd}` : MSG.coursework.dateRange}
            </Text>
            <SimpleGrid cols={7} spacing={2} verticalSpacing={2} aria-hidden>
              {/* The first week starts on Sunday (pickerDays): its days name the columns. */}
              {days.slice(0, 7).map((d) => (
                <Text key={d} size="xs" c="dimmed" ta="center">
                  {formatDay(d, 'weekday')}
                </Text>
              ))}
            </SimpleGrid>
            <SimpleGrid
              cols={7}
              spacing={2}
              verticalSpacing={2}
              ref={grid}
              role="group"
              aria-label={MSG.coursework.dateRange}
            >
              {days.map((day, i) => {
                const disabled = day < today;
                const inRange = !!shown.startDate && !!shown.endDate && day >= shown.startDate && day <= shown.endDate;
                const edge = day === shown.startDate || day === shown.endDate;
                return (
                  <UnstyledButton
                    key={day}
                    className={classes.day}
                    data-in-range={inRange || undefined}
                    data-edge={edge || undefined}
                    data-today={day === today || undefined}
                    disabled={disabled}
                    tabIndex={i === focus ? 0 : -1}
                    aria-pressed={edge || inRange}
                    aria-label={formatDay(day, 'full')}
                    onClick={() => pick(day)}
                    onKeyDown={(e) => move(e, i)}
                  >
                    {formatDay(day, 'day')}
                  </UnstyledButton>
                );
              })}
            </SimpleGrid>
            <Group justify="flex-end">
              <Button
                variant="subtle"
                size="xs"
                onClick={() => {
                  setDraft({ startDate: null, endDate: null });
                  onChange({ startDate: null, endDate: null, dateRangeActive: false });
                  setOpened(false);
                }}
              >
                {MSG.coursework.clear}
              </Button>
            </Group>
          </Stack>
        </Popover.Dropdown>
      </Popover>
    </Input.Wrapper>
  );
}
