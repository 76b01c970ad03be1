import { useCallback, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { Box, Text } from '@mantine/core';
import { MSG } from '@studybuddy/shared/messages';
import { CELLS_PER_DAY, DAY_NAMES, halfHourLabel } from './week-labels.ts';
import classes from './week-grid.module.css';

interface WeekGridProps {
  cells: string;
  onChange(cells: string): void;
}

const cellIndex = (day: number, row: number) => day * CELLS_PER_DAY + row;

/**
 * The week painted in half hours: drag with a mouse or a finger (the first cell decides free or busy for the whole
 * stroke), or move with the arrow keys and switch with Space. A grid of gridcells with one tab stop.
 */
export function WeekGrid({ cells, onChange }: WeekGridProps) {
  const [focus, setFocus] = useState({ day: 0, row: 18 });
  const painting = useRef<{ value: '0' | '1'; cells: string[]; last: number } | null>(null);
  const gridRef = useRef<HTMLDivElement>(null);

  /** Paints every cell of the rectangle from the stroke's last cell to this one: a quick drag skips no cell. */
  const paint = useCallback(
    (index: number) => {
      const stroke = painting.current;
      if (!stroke) return;
      const [d0, d1] = [Math.floor(stroke.last / CELLS_PER_DAY), Math.floor(index / CELLS_PER_DAY)].sort(
        (a, b) => a - b,
      );
      const [r0, r1] = [stroke.last % CELLS_PER_DAY, index % CELLS_PER_DAY].sort((a, b) => a - b);
      let changed = false;
      for (let d = d0!; d <= d1!; d++) {
        for (let r = r0!; r <= r1!; r++) {
          if (stroke.cells[cellIndex(d, r)] !== stroke.value) {
            stroke.cells[cellIndex(d, r)] = stroke.value;
            changed = true;
          }
        }
      }
      stroke.last = index;
      if (changed) onChange(stroke.cells.join(''));
    },
    [onChange],
  );

  const cellFromPoint = (x: number, y: number): number | null => {
    const el = document.elementFromPoint(x, y)?.closest<HTMLElement>('[data-cell]');
    return el && gridRef.current?.contains(el) ? Number(el.dataset.cell) : null;
  };

  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    const index = cellFromPoint(e.clientX, e.clientY);
    if (index === null || e.button > 0) return;
    e.preventDefault();
    painting.current = { value: cells[index] === '1' ? '0' : '1', cells: cells.split(''), last: index };
    setFocus({ day: Math.floor(index / CELLS_PER_DAY), row: index % CELLS_PER_DAY });
    paint(index);
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    if (!painting.current) return;
    const index = cellFromPoint(e.clientX, e.clientY);
    if (index !== null) paint(index);
  };
  const endStroke = () => {
    painting.current = null;
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const moves: Record<string, [number, number]> = {
      ArrowUp: [0, -1],
      ArrowDown: [0, 1],
      ArrowLeft: [-1, 0],
      ArrowRight: [1, 0],
      Home: [-7, 0],
      End: [7, 0],
    };
    const move = moves[e.key];
    if (move) {
      e.preventDefault();
      const next = {
        day: Math.min(6, Math.max(0, focus.day + move[0])),
        row: Math.min(CELLS_PER_DAY - 1, Math.max(0, focus.row + move[1])),
      };
      setFocus(next);
      gridRef.current?.querySelector<HTMLElement>(`[data-cell="${cellIndex(next.day, next.row)}"]`)?.focus();
      return;
    }
    if (e.key === ' ' || e.key === 'Enter') {
      e.preventDefault();
      const index = cellIndex(focus.day, focus.row);
      const list = cells.split('');
      list[index] = list[index] === '1' ? '0' : '1';
      onChange(list.join(''));
    }
  };

  return (
    <Box>
      <Text size="sm" c="dimmed" mb="xs" id="week-grid-help">
        {MSG.schedule.keyboardHelp}
      </Text>
      <div
        ref={gridRef}
        role="grid"
        aria-label={MSG.schedule.gridLabel}
        aria-describedby="week-grid-help"
        className={classes.grid}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={endStroke}
        onPointerCancel={endStroke}
        onPointerLeave={endStroke}
        onKeyDown={onKeyDown}
      >
        <div role="row" className={classes.row}>
          <span role="columnheader" className={classes.corner}>
            <span className={classes.hidden}>{MSG.schedule.timeColumn}</span>
          </span>
          {DAY_NAMES.map((d) => (
            <span role="columnheader" key={d} className={classes.dayHead}>
              {d}
            </span>
          ))}
        </div>
        {Array.from({ length: CELLS_PER_DAY }, (_, row) => (
          <div role="row" key={row} className={classes.row}>
            <span role="rowheader" className={classes.time}>
              {row % 2 === 0 ? halfHourLabel(row) : <span className={classes.hidden}>{halfHourLabel(row)}</span>}
            </span>
            {DAY_NAMES.map((d, day) => {
              const index = cellIndex(day, row);
              const free = cells[index] === '1';
              const focused = focus.day === day && focus.row === row;
              return (
                <span
                  key={d}
                  role="gridcell"
                  data-cell={index}
                  data-free={free || undefined}
                  aria-selected={free}
                  aria-label={MSG.schedule.cellLabel(d, halfHourLabel(row), free)}
                  tabIndex={focused ? 0 : -1}
                  onFocus={() => !focused && setFocus({ day, row })}
                  className={classes.cell}
                />
              );
            })}
          </div>
        ))}
      </div>
    </Box>
  );
}
