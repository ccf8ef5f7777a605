import { Group, Text, Title } from '@mantine/core';
import { NameAvatar } from './NameAvatar';

/** A server's or group's icon (initial as fallback), name and what the screen is about. */
export function EntityHeader({
  icon,
  name,
  subtitle,
}: {
  icon: string | null;
  name: string;
  subtitle: string;
}) {
  return (
    <Group>
      <NameAvatar src={icon} name={name} size="lg" />
      <div>
        <Title order={2} size="h3">
          {name}
        </Title>
        <Text c="dimmed">{subtitle}</Text>
      </div>
    </Group>
  );
}
