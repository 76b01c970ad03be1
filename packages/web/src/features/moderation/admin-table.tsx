import type { ReactNode } from 'react';
import { Paper, Stack, Table } from '@mantine/core';

/**
 * An admin list: a striped table from the `sm` breakpoint up (`head` its column headers, `row` an item's cells), and
 * a column of bordered cards below it (`card` an item's content).
 */
export function AdminTable<T extends { id: string }>({
  testId,
  head,
  items,
  row,
  card,
}: {
  testId: string;
  head: ReactNode[];
  items: T[];
  row: (item: T) => ReactNode;
  card: (item: T) => ReactNode;
}) {
  return (
    <>
      <Table visibleFrom="sm" striped verticalSpacing="xs" data-testid={testId}>
        <Table.Thead>
          <Table.Tr>
            {head.map((h, i) => (
              <Table.Th key={i}>{h}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.map((item) => (
            <Table.Tr key={item.id}>{row(item)}</Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Stack hiddenFrom="sm" gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
        {items.map((item) => (
          <Paper key={item.id} component="li" withBorder p="sm" radius="md">
            {card(item)}
          </Paper>
        ))}
      </Stack>
    </>
  );
}
