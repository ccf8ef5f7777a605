import { Button, Group, Paper, Stack, Switch, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { notify } from '../../../components/toasts';
import type { LinkedGroup } from '../api/linkedGroup';
import { type GroupSettingsChange, useUpdateGroupSettings } from '../api/updateGroupSettings';
import { DiscordToGroupDialog } from './DiscordToGroupDialog';
import { GroupToDiscordDialog } from './GroupToDiscordDialog';

interface Props {
  guildId: string;
  group: LinkedGroup;
  canEdit: boolean;
}

function SetupRow(props: { label: string; description: string; canEdit: boolean; onOpen: () => void }) {
  return (
    <Group justify="space-between" wrap="nowrap">
      <div>
        <Text fw={500}>{props.label}</Text>
        <Text size="sm" c="dimmed">
          {props.description}
        </Text>
      </div>
      <Button
        variant="light"
        disabled={!props.canEdit}
        title={props.canEdit ? undefined : 'Needs the Admin permission'}
        aria-label={`${props.label} setup`}
        onClick={props.onOpen}
      >
        Setup
      </Button>
    </Group>
  );
}

/** The group's switches, each saved at once, and the two role-mapping dialogs (Admin only). */
export function GroupSettings({ guildId, group, canEdit }: Props) {
  const update = useUpdateGroupSettings(guildId);
  const [dialog, setDialog] = useState<'discordToGroup' | 'groupToDiscord' | null>(null);
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
        <SetupRow
          label="Discord to Group Roles"
          description="Membership and group roles for holders of Discord roles."
          canEdit={canEdit}
          onOpen={() => setDialog('discordToGroup')}
        />
        <SetupRow
          label="Group to Discord Roles"
          description="Discord roles for holders of group roles."
          canEdit={canEdit}
          onOpen={() => setDialog('groupToDiscord')}
        />
      </Stack>
      {dialog === 'discordToGroup' && (
        <DiscordToGroupDialog guildId={guildId} onClose={() => setDialog(null)} />
      )}
      {dialog === 'groupToDiscord' && (
        <GroupToDiscordDialog guildId={guildId} onClose={() => setDialog(null)} />
      )}
    </Paper>
  );
}
