import { Paper, Text, Title } from '@mantine/core';

/** A tab the caller has no permission for: says which permission an admin can grant. */
export function NoAccess({ what, permission }: { what: string; permission: string }) {
  return (
    <Paper withBorder p="lg">
      <Title order={2} size="h4" mb="xs">
        No access
      </Title>
      <Text c="dimmed">
        You cannot see {what}. A server administrator can grant you the {permission} permission.
      </Text>
    </Paper>
  );
}
