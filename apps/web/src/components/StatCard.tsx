import { Paper, Text } from '@mantine/core';

/** One labelled count, e.g. 'Members' or 'Linked Members'. */
export function StatCard({ label, value }: { label: string; value: number }) {
  return (
    <Paper withBorder p="sm">
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={700} size="xl">
        {value}
      </Text>
    </Paper>
  );
}
