import { Paper, SimpleGrid, Text } from '@mantine/core';

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

/** A tab's headline counts side by side under its header, e.g. Members and Linked Members. */
export function StatCards({ stats }: { stats: Record<string, number> }) {
  const entries = Object.entries(stats);
  return (
    <SimpleGrid cols={entries.length} maw={210 * entries.length}>
      {entries.map(([label, value]) => (
        <StatCard key={label} label={label} value={value} />
      ))}
    </SimpleGrid>
  );
}
