import { Anchor, Container, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { usePublicConfig } from '../../../api/publicConfig';

export const LAST_UPDATED = 'May 17, 2025';

export function LegalPage({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Container size="md" py="xl">
      <title>{`${title} · VRCLink`}</title>
      <Title order={1}>{title}</Title>
      <Text c="dimmed" mt={4} mb="xl">
        Last updated: {LAST_UPDATED}
      </Text>
      <Stack gap="xl">{children}</Stack>
    </Container>
  );
}

export function LegalSection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section>
      <Title order={2} fz="h3" mb="sm">
        {title}
      </Title>
      <Stack gap="sm">{children}</Stack>
    </section>
  );
}

/** The contact address from the server's public config. */
export function ContactEmail() {
  const email = usePublicConfig()?.contactEmail;
  if (!email) return <span>our contact address</span>;
  return <Anchor href={`mailto:${email}`}>{email}</Anchor>;
}
