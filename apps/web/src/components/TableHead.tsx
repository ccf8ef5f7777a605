import { Table } from '@mantine/core';

/** A table's header row: one plain column heading per name. */
export function TableHead({ columns }: { columns: readonly string[] }) {
  return (
    <Table.Thead>
      <Table.Tr>
        {columns.map((name) => (
          <Table.Th key={name}>{name}</Table.Th>
        ))}
      </Table.Tr>
    </Table.Thead>
  );
}
