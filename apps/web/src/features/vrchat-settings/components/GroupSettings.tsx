import { Button, Group, Paper, Stack, Switch, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { notify } from '../../../components/toasts';
import { failureSentence } from '../../../lib/failure-sentence';
import { ChangePreviewPanel } from '../../../lib/sync/components/ChangePreviewPanel';
import type { LinkedGroup } from '../api/linkedGroup';
import { type GroupSettingsChange, useUpdateGroupSettings } from '../api/updateGroupSettings';
import { discordToGroup, groupToDiscord } from '../mappingDirections';
import { RoleMappingDialog } from './RoleMappingDialog';

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
        // The description wraps on a phone; the button keeps its whole label.
        style={{ flexShrink: 0 }}
      >
        Setup
      </Button>
    </Group>
  );
}

const switchLabels = {
  enabled: 'Enable Groups feature',
  autoKick: 'Auto Remove Members without membership',
} as const;
type SwitchKey = keyof typeof switchLabels;
const switchDescriptions: Record<SwitchKey, string> = {
  enabled: "Sync group membership and roles with this server's Discord roles.",
  autoKick: 'Remove group members whose Discord roles give them no membership.',
};

/**
 * The group's switches and the two role-mapping dialogs (Admin only). A switch is saved only after the
 * preview of what it would make the bot do, with Save or Cancel.
 */
export function GroupSettings({ guildId, group, canEdit }: Props) {
  const update = useUpdateGroupSettings(guildId);
  const [dialog, setDialog] = useState<'discordToGroup' | 'groupToDiscord' | null>(null);
  const [pending, setPending] = useState<{ key: SwitchKey; on: boolean } | null>(null);
  const save = (change: GroupSettingsChange) =>
    update.mutate(change, {
      onError: (error) =>
        notify({ type: 'error', message: failureSentence('Failed to update group settings.', error) }),
      onSettled: () => setPending(null),
    });
  const shown = (key: SwitchKey) => (pending?.key === key ? pending.on : group[key]);
  const propose = (key: SwitchKey, on: boolean) => setPending(on === group[key] ? null : { key, on });

  return (
    <Paper withBorder p="lg">
      <Title order={3} mb="md">
        Settings
      </Title>
      <Stack>
        {(Object.keys(switchLabels) as SwitchKey[]).map((key) => (
          <Switch
            key={key}
            label={switchLabels[key]}
            description={switchDescriptions[key]}
            checked={shown(key)}
            disabled={!canEdit || update.isPending}
            onChange={(e) => propose(key, e.currentTarget.checked)}
          />
        ))}
        {pending && (
          <ChangePreviewPanel
            guildId={guildId}
            change={{ kind: 'groupSettings', [pending.key]: pending.on }}
            title={`${switchLabels[pending.key]}: ${pending.on ? 'off → on' : 'on → off'}`}
            saving={update.isPending}
            onSave={() =>
              save(pending.key === 'enabled' ? { enabled: pending.on } : { autoKick: pending.on })
            }
            onCancel={() => setPending(null)}
          />
        )}
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
        <RoleMappingDialog direction={discordToGroup} guildId={guildId} onClose={() => setDialog(null)} />
      )}
      {dialog === 'groupToDiscord' && (
        <RoleMappingDialog direction={groupToDiscord} guildId={guildId} onClose={() => setDialog(null)} />
      )}
    </Paper>
  );
}
