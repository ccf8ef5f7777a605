import { Button, Group, Paper, Stack, Switch, Text, Title } from '@mantine/core';
import { notify } from '../../../components/toasts';
import type { LinkedGroup } from '../api/linkedGroup';
import { type GroupSettingsChange, useUpdateGroupSettings } from '../api/updateGroupSettings';

interface Props {
  guildId: string;
  group: LinkedGroup;
  canEdit: boolean;
}

function SetupRow({ label, description }: { label: string; description: string }) {
  return (
    <Group justify="space-between">
      <div>
        <Text fw={500}>{label}</Text>
        <Text size="sm" c="dimmed">
          {description}
        </Text>
      </div>
      <Button variant="light" disabled title="Not available yet" aria-label={`${label} setup`}>
        Setup
      </Button>
    </Group>
  );
}

/** The group's switches, each saved at once, and the role-mapping dialogs (not available yet). */
export function GroupSettings({ guildId, group, canEdit }: Props) {
  const update = useUpdateGroupSettings(guildId);
  const save = (change: GroupSettingsChange) =>
    update.mutate(change, {
      onError: (error) =>
        notify({ type: 'error', message: `Failed to update group settings: ${error.message}` }),
    });

  return (
    <Paper withBorder p="lg">
      <Title order={3} mb="md">
        Settings
      </Title>
      <Stack>
        <Switch
          label="Enable Groups feature"
          description="Sync group membership and roles with this server's Discord roles."
          checked={group.enabled}
          disabled={!canEdit || update.isPending}
          onChange={(e) => save({ enabled: e.currentTarget.checked })}
        />
        <Switch
          label="Auto Remove Members without membership"
          description="Remove group members whose Discord roles give them no membership."
          checked={group.autoKick}
          disabled={!canEdit || update.isPending}
          onChange={(e) => save({ autoKick: e.currentTarget.checked })}
        />
        <SetupRow label="Discord to Group Roles" description="Give group roles for Discord roles." />
        <SetupRow label="Group to Discord Roles" description="Give Discord roles for group roles." />
      </Stack>
    </Paper>
  );
}
