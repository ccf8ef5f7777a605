import { Container, Paper, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** A page whose content arrives in a later issue. */
export function PlaceholderPage({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <Container size="lg" py="xl">
      <title>{`${title} · VRCLink`}</title>
      <Title order={1} mb="md">
        {title}
      </Title>
      <Paper withBorder p="lg">
        {children ?? <Text c="dimmed">This page is coming soon.</Text>}
      </Paper>
    </Container>
  );
}
