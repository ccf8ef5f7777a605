import { Avatar, Group, Text, Title } from '@mantine/core';

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
      <Avatar src={icon} alt="" size="lg" radius="md">
        {name.slice(0, 1)}
      </Avatar>
      <div>
        <Title order={2} size="h3">
          {name}
        </Title>
        <Text c="dimmed">{subtitle}</Text>
      </div>
    </Group>
  );
}
