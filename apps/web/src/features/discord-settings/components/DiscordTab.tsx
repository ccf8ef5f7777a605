import { Alert, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessage } from '../../../api/errors';
import { EntityHeader } from '../../../components/EntityHeader';
import { StatCards } from '../../../components/StatCard';
import { notify } from '../../../components/toasts';
import { failureSentence } from '../../../lib/failure-sentence';
import type { ManageableGuild } from '../../../lib/guild-access/api/guilds';
import { NoAccess } from '../../../lib/guild-access/components/NoAccess';
import { can } from '../../../lib/guild-access/tabs';
import { SetupCheckPanel } from '../../../lib/setup-doctor';
import { syncKey } from '../../../lib/sync/api/sync';
import { ChangePreviewPanel } from '../../../lib/sync/components/ChangePreviewPanel';
import { HeldRemovalsAlert } from '../../../lib/sync/components/HeldRemovalsAlert';
import { SyncNowRow } from '../../../lib/sync/components/SyncNow';
import { SyncWarnings } from '../../../lib/sync/components/SyncWarnings';
import {
  type AutoAssignRoles,
  guildSettingsQuery,
  isStaleSave,
  type OldRolesChoice,
  useGuildSettings,
  useUpdateAutoAssignRoles,
} from '../api/guildSettings';
import { AutoRoleSelect } from './AutoRoleSelect';
import { GuestRolesDialog } from './GuestRolesDialog';

/** Without Discord's Server Members intent the bot only keeps linked members; how to switch it on. */
function MembersIntentNote() {
  return (
    <Alert color="yellow" variant="light" title="Server Members Intent is off" maw={720}>
      <Text size="sm">
        The bot cannot see the full member list, so the Members tab shows linked members only and member
        changes are picked up with a delay. To see every member, the bot's owner opens the Discord Developer
        Portal → the application → Bot → Privileged Gateway Intents, switches on{' '}
        <strong>Server Members Intent</strong> and saves; the bot picks it up at the next sync (Sync now
        below) or restart.
      </Text>
    </Alert>
  );
}

type AutoRoleKey = 'ageVerifiedPlus18RoleId' | 'linkedRoleId';
interface Pending {
  key: AutoRoleKey;
  label: string;
  roleId: string | null;
  /** The settings' version when the role was chosen: the save carries it (409 if another manager saved). */
  version: number;
  /** Why the page shows another manager's version and asks again (after a 409). */
  notice?: string;
  /** Keep the replaced role on its holders instead of having the bot take it back. */
  keepOld: boolean;
}

/** The role a pending change stops managing: set now, not the new choice, and no other setting's. */
function oldRoleOf(current: AutoAssignRoles, pending: Pending): string | null {
  const old = current[pending.key];
  const stillUsed = (Object.keys(current) as (keyof AutoAssignRoles)[]).some(
    (k) => k !== pending.key && current[k] === old,
  );
  return !old || old === pending.roleId || stillUsed ? null : old;
}

export function DiscordTab({ guild }: { guild: ManageableGuild }) {
  const settings = useGuildSettings(guild.id);
  const update = useUpdateAutoAssignRoles(guild.id);
  const queryClient = useQueryClient();
  const [guestsOpen, setGuestsOpen] = useState(false);
  // A chosen role waits here, with the preview of what it would do, until Save or Cancel.
  const [pending, setPending] = useState<Pending | null>(null);
  const canEdit = can(guild.permissions, 'Admin');

  if (!can(guild.permissions, 'ViewGuild'))
    return <NoAccess what="this server's Discord settings" permission="ViewGuild" />;
  if (settings.isPending) return <Text>Loading..</Text>;
  if (settings.isError)
    return (
      <Alert color="red" variant="light" role="alert">
        Failed to load server information.
      </Alert>
    );
  const data = settings.data;
  // Said explicitly when the change replaces a role: taken back from its holders, or kept on them.
  const save = (change: Partial<AutoAssignRoles>, from: Pending, oldRoles?: OldRolesChoice) =>
    update.mutate(
      { change, version: from.version, oldRoles },
      {
        onSuccess: () => {
          notify({ type: 'success', message: 'Auto assign roles updated successfully.' });
          setPending(null);
        },
        onError: async (error) => {
          if (!isStaleSave(error)) {
            notify({ type: 'error', message: failureSentence('Failed to update auto assign roles.', error) });
            setPending(null);
            return;
          }
          // Another manager saved first: show their settings, keep this choice and preview it again
          // against them; Save waits for that preview and then carries the new version.
          try {
            const fresh = await queryClient.fetchQuery({ ...guildSettingsQuery(guild.id), staleTime: 0 });
            await queryClient.invalidateQueries({ queryKey: [...syncKey(guild.id), 'change'] });
            setPending((p) => p && { ...p, version: fresh.version, notice: errorMessage(error, '') });
          } catch (reread) {
            notify({
              type: 'error',
              message: failureSentence('Failed to update auto assign roles.', reread),
            });
            setPending(null);
          }
        },
      },
    );
  const roleName = (id: string | null) =>
    id === null ? 'none' : (data.roles.find((r) => r.id === id)?.name ?? `Deleted role (${id})`);
  const oldRole = pending && oldRoleOf(data.autoAssignRoles, pending);
  const shown = (key: AutoRoleKey) => (pending?.key === key ? pending.roleId : data.autoAssignRoles[key]);
  const select = (key: AutoRoleKey, label: string, description: string) => (
    <AutoRoleSelect
      label={label}
      description={description}
      roles={data.roles}
      value={shown(key)}
      disabled={!canEdit || update.isPending}
      onChange={(roleId) =>
        setPending(
          roleId === data.autoAssignRoles[key]
            ? null
            : { key, label, roleId, version: data.version, keepOld: false },
        )
      }
    />
  );

  return (
    <Stack gap="lg">
      <EntityHeader icon={data.icon} name={data.name} subtitle="Discord Settings" />
      <StatCards stats={{ Members: data.members, 'Linked Members': data.linkedMembers }} />
      {!data.membersIntent && <MembersIntentNote />}
      <Paper withBorder p="lg">
        <Title order={3} mb="md">
          Settings
        </Title>
        <Stack>
          {select(
            'ageVerifiedPlus18RoleId',
            '18+ Verified Role',
            'Given to members whose VRChat account is verified 18+; removed from all unverified.',
          )}
          {select(
            'linkedRoleId',
            'Linked Users Role',
            'Given to members who linked a VRChat account; removed from all unlinked.',
          )}
          {pending && (
            <ChangePreviewPanel
              guildId={guild.id}
              change={{
                kind: 'autoRoles',
                autoAssignRoles: { [pending.key]: pending.roleId },
                ...(pending.keepOld ? { oldRoles: 'keep' as const } : {}),
              }}
              title={`${pending.label}: ${roleName(data.autoAssignRoles[pending.key])} → ${roleName(pending.roleId)}`}
              saving={update.isPending}
              notice={pending.notice}
              onSave={() =>
                save(
                  { [pending.key]: pending.roleId },
                  pending,
                  oldRole ? (pending.keepOld ? 'keep' : 'take') : undefined,
                )
              }
              onCancel={() => setPending(null)}
              oldRole={
                oldRole
                  ? {
                      roleName: roleName(oldRole),
                      keep: pending.keepOld,
                      onKeepChange: (keepOld) => setPending({ ...pending, keepOld }),
                    }
                  : undefined
              }
            />
          )}
          <Group justify="space-between">
            <div>
              <Text fw={500}>Guest Roles</Text>
              <Text size="sm" c="dimmed">
                Let holders of a role give guests a role of their own.
              </Text>
            </div>
            <Button variant="light" onClick={() => setGuestsOpen(true)}>
              Setup
            </Button>
          </Group>
          <HeldRemovalsAlert guildId={guild.id} enabled={canEdit} />
          <SyncWarnings guildId={guild.id} enabled={canEdit} />
          {canEdit && <SyncNowRow guildId={guild.id} />}
        </Stack>
      </Paper>
      <SetupCheckPanel guildId={guild.id} area="discord" />
      {guestsOpen && (
        <GuestRolesDialog
          guildId={guild.id}
          roles={data.roles}
          canEdit={canEdit}
          onClose={() => setGuestsOpen(false)}
        />
      )}
    </Stack>
  );
}
