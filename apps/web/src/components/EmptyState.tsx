import { Center, type MantineSpacing, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * A bordered pane saying, centred, why there is nothing to show: a heading (a page's at order 2, a section's
 * at 3), a dimmed sentence, and an action below if there is one.
 */
export function EmptyState({
  title,
  order = 3,
  textAlign,
  gap = 4,
  action,
  children,
}: {
  title: string;
  order?: 2 | 3;
  textAlign?: 'center';
  gap?: MantineSpacing | number;
  action?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Paper withBorder p="xl">
      <Center>
        <Stack align="center" gap={gap}>
          <Title order={order} size={order === 2 ? 'h3' : 'h4'}>
            {title}
          </Title>
          <Text c="dimmed" ta={textAlign}>
            {children}
          </Text>
          {action}
        </Stack>
      </Center>
    </Paper>
  );
}
