import { Badge, Code, Group, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconPackage } from '@tabler/icons-react';
import type { PackageSummary } from '../latestPackages';

/** One package of the listing at its latest version. */
export function PackageCard({ pkg }: { pkg: PackageSummary }) {
  return (
    <Paper withBorder p="lg" radius="md" component="article" aria-label={pkg.displayName}>
      <Group align="flex-start" wrap="nowrap" gap="md">
        <ThemeIcon size={44} radius="md" variant="light">
          <IconPackage size={26} />
        </ThemeIcon>
        <Stack gap={6} style={{ minWidth: 0 }}>
          <Group gap="sm">
            <Title order={3} fz="h4">
              {pkg.displayName}
            </Title>
            <Badge variant="light" tt="none" aria-label={`Latest version ${pkg.version}`}>
              v{pkg.version}
            </Badge>
          </Group>
          <Code style={{ alignSelf: 'flex-start' }}>{pkg.name}</Code>
          {pkg.description && <Text size="sm">{pkg.description}</Text>}
        </Stack>
      </Group>
    </Paper>
  );
}
