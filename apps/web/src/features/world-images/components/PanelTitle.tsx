import { Badge, Group, Title } from '@mantine/core';

interface Props {
  /** The heading's id, which the panel names itself by (aria-labelledby). */
  id: string;
  title: string;
  count: number;
  /** What the count counts, for screen readers: "Number of server images". */
  countLabel: string;
}

/** A World Images panel's heading with the number of things it lists beside it. */
export function PanelTitle({ id, title, count, countLabel }: Props) {
  return (
    <Group gap="xs">
      <Title order={3} size="h4" id={id}>
        {title}
      </Title>
      <Badge variant="light" aria-label={countLabel}>
        {count}
      </Badge>
    </Group>
  );
}
