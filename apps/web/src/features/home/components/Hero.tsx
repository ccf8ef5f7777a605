import { Badge, Box, Button, Container, Group, Stack, Text, Title } from '@mantine/core';
import { IconBrandDiscord, IconLifebuoy } from '@tabler/icons-react';
import { usePublicConfig } from '../../../api/publicConfig';
import { HeroPreview } from './HeroPreview';
import classes from './home.module.css';

const stats = [
  { value: '1100+', label: 'communities' },
  { value: '45K+', label: 'linked users' },
];

export function Hero() {
  const config = usePublicConfig();
  return (
    <section className={classes.hero}>
      <Container size="lg">
        <Group justify="space-between" align="center" wrap="nowrap" gap="xl">
          <Stack gap="lg" align="flex-start">
            <Badge variant="light" size="lg" radius="sm">
              Discord bot + companion website
            </Badge>
            <Title order={1} className={classes.title}>
              <Text
                component="span"
                inherit
                variant="gradient"
                gradient={{ from: 'violet.4', to: 'indigo.3' }}
              >
                Seamless Linking and Syncing for VRChat
              </Text>
            </Title>
            <Text size="lg" c="dimmed" maw={620}>
              Link Discord accounts to VRChat accounts in one click, keep roles and groups in sync on both
              platforms, and bring your community's data into your worlds.
            </Text>
            <Group gap="sm">
              <Button
                component="a"
                href={config?.inviteUrl}
                target="_blank"
                rel="noopener noreferrer"
                size="md"
                leftSection={<IconBrandDiscord size={20} />}
                disabled={!config}
                aria-disabled={!config || undefined}
              >
                Invite to Server
              </Button>
              <Button
                component="a"
                href={config?.supportUrl}
                target="_blank"
                rel="noopener noreferrer"
                size="md"
                variant="default"
                leftSection={<IconLifebuoy size={20} />}
                disabled={!config}
                aria-disabled={!config || undefined}
              >
                Support
              </Button>
            </Group>
            <Group gap="xl" mt="sm">
              {stats.map((stat) => (
                <div key={stat.label} className={classes.stat}>
                  <Text fz={28} fw={800} lh={1.1}>
                    {stat.value}
                  </Text>
                  <Text size="sm" c="dimmed">
                    {stat.label}
                  </Text>
                </div>
              ))}
            </Group>
          </Stack>
          <Box visibleFrom="md">
            <HeroPreview />
          </Box>
        </Group>
      </Container>
    </section>
  );
}
