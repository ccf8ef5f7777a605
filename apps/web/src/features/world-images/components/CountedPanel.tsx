import { Badge, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

interface Props {
  /** The heading's id, which the panel names itself by (aria-labelledby). */
  id: string;
  title: string;
  count: number;
  /** What the count counts, for screen readers: "Number of server images". */
  countLabel: string;
  /** The buttons beside the heading. */
  actions?: ReactNode;
  /** Said instead of the list while the count is 0. */
  empty: { title: string; text: string };
  /** A line above the list saying how to use it. */
  hint?: string;
  /** The list. */
  children: ReactNode;
}

/** A World Images panel: its heading with the number of things it lists, its buttons, and the list or why it is empty. */
export function CountedPanel({ id, title, count, countLabel, actions, empty, hint, children }: Props) {
  return (
    <Paper withBorder p="md" component="section" aria-labelledby={id}>
      <Stack gap="sm">
        <Group justify="space-between" gap="xs">
          <Group gap="xs">
            <Title order={3} size="h4" id={id}>
              {title}
            </Title>
            <Badge variant="light" aria-label={countLabel}>
              {count}
            </Badge>
          </Group>
          {actions}
        </Group>
        {count === 0 ? (
          <Stack align="center" gap={4} py="lg">
            <Text fw={500}>{empty.title}</Text>
            <Text size="sm" c="dimmed" ta="center">
              {empty.text}
            </Text>
          </Stack>
        ) : (
          <>
            {hint && (
              <Text size="xs" c="dimmed">
                {hint}
              </Text>
            )}
            {children}
          </>
        )}
      </Stack>
    </Paper>
  );
}
