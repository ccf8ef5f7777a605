import { Badge, Group, Paper, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { NameAvatar } from '../../../components/NameAvatar';
import { RowList } from './RowList';

export interface Entity {
  id: string;
  name: string;
  icon: string | null;
}

interface Props<T extends Entity> {
  title: string;
  items: T[];
  empty: string;
  actions: (item: T) => ReactNode;
}

/** A titled card with a count and one row per server or group: icon, name and buttons. */
export function EntityList<T extends Entity>({ title, items, empty, actions }: Props<T>) {
  const titleId = `${title.toLowerCase().replace(/\s+/g, '-')}-title`;
  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-labelledby={titleId}>
      <Group gap="sm" mb="md">
        <Title order={3} id={titleId}>
          {title}
        </Title>
        <Badge variant="light" color="gray" aria-label={`${items.length} ${title}`}>
          {items.length}
        </Badge>
      </Group>
      {items.length === 0 ? (
        <Text c="dimmed" size="sm">
          {empty}
        </Text>
      ) : (
        <RowList gap="sm">
          {items.map((item) => (
            <RowList.Row key={item.id} label={item.name} wrap="wrap">
              <Group gap="sm" wrap="nowrap" miw={0} style={{ flex: '1 1 12rem' }}>
                <NameAvatar src={item.icon} name={item.name} />
                <Text fw={500} truncate>
                  {item.name}
                </Text>
              </Group>
              <Group gap="xs">{actions(item)}</Group>
            </RowList.Row>
          ))}
        </RowList>
      )}
    </Paper>
  );
}
