import { Avatar, Badge, Card, Group, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconArrowsExchange, IconBrandDiscord, IconShieldCheck } from '@tabler/icons-react';

const roles = [
  { name: 'Supporter', color: 'pink' },
  { name: 'Event Staff', color: 'teal' },
  { name: 'VIP', color: 'yellow' },
];

/** A decorative mock-up of a linked account, so the hero shows what the product does. */
export function HeroPreview() {
  return (
    <Card withBorder radius="lg" p="lg" w={340} shadow="xl" bg="dark.6" aria-hidden>
      <Stack gap="md">
        <Group justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Avatar color="indigo" radius="xl">
              <IconBrandDiscord size={20} />
            </Avatar>
            <div>
              <Text fw={700} size="sm">
                @neonfox
              </Text>
              <Text size="xs" c="dimmed">
                Discord
              </Text>
            </div>
          </Group>
          <ThemeIcon variant="light" radius="xl" size="lg">
            <IconArrowsExchange size={18} />
          </ThemeIcon>
          <Group gap="sm" wrap="nowrap">
            <div style={{ textAlign: 'right' }}>
              <Text fw={700} size="sm">
                NeonFox
              </Text>
              <Text size="xs" c="dimmed">
                VRChat
              </Text>
            </div>
            <Avatar color="violet" radius="xl">
              NF
            </Avatar>
          </Group>
        </Group>
        <Group gap={6}>
          <Badge color="green" variant="light" leftSection={<IconShieldCheck size={12} />}>
            Ownership-Verified
          </Badge>
          <Badge color="grape" variant="light">
            18+ Verified
          </Badge>
        </Group>
        <div>
          <Text size="xs" c="dimmed" tt="uppercase" fw={700} mb={6}>
            Roles synced
          </Text>
          <Group gap={6}>
            {roles.map((role) => (
              <Badge key={role.name} color={role.color} variant="dot">
                {role.name}
              </Badge>
            ))}
          </Group>
        </div>
      </Stack>
    </Card>
  );
}
