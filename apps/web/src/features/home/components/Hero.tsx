import { Badge, Box, Container, Group, Stack, Text, Title } from '@mantine/core';
import { IconBrandDiscord, IconLifebuoy } from '@tabler/icons-react';
import { usePublicConfig } from '../../../api/publicConfig';
import { ExternalLinkButton } from '../../../components/ExternalLinkButton';
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
              <ExternalLinkButton
                href={config?.inviteUrl}
                size="md"
                variant="filled"
                icon={<IconBrandDiscord size={20} />}
              >
                Invite to Server
              </ExternalLinkButton>
              <ExternalLinkButton href={config?.supportUrl} size="md" icon={<IconLifebuoy size={20} />}>
                Support
              </ExternalLinkButton>
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
