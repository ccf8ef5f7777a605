import { Group, type GroupProps, Stack, type StackProps } from '@mantine/core';
import type { ReactNode } from 'react';

/** A list without bullets or indent (a <ul>), for rows of `RowList.Row`. */
export function RowList({
  gap,
  label,
  children,
}: {
  gap: StackProps['gap'];
  label?: string;
  children: ReactNode;
}) {
  return (
    <Stack component="ul" gap={gap} p={0} m={0} aria-label={label} style={{ listStyle: 'none' }}>
      {children}
    </Stack>
  );
}

/** One row (a <li> named `label`): what it is on the left, its buttons on the right. */
RowList.Row = function Row({
  label,
  wrap,
  children,
}: {
  label: string;
  wrap: GroupProps['wrap'];
  children: ReactNode;
}) {
  return (
    <Group component="li" aria-label={label} justify="space-between" gap="sm" wrap={wrap}>
      {children}
    </Group>
  );
};
