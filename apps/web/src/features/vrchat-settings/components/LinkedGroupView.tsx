import { Button, Group, Stack } from '@mantine/core';
import { useState } from 'react';
import { usePublicConfig } from '../../../api/publicConfig';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { EntityHeader } from '../../../components/EntityHeader';
import { ExternalLinkButton } from '../../../components/ExternalLinkButton';
import { StatCards } from '../../../components/StatCard';
import { notify } from '../../../components/toasts';
import { AuditLogDialog } from '../../../lib/audit-log';
import { failureSentence } from '../../../lib/failure-sentence';
import type { LinkedGroup } from '../api/linkedGroup';
import { useUnlinkGroup } from '../api/unlinkGroup';
import { groupPageUrl } from '../groupId';
import { BotAccountNote } from './BotAccountNote';
import { GroupSettings } from './GroupSettings';

interface Props {
  guildId: string;
  group: LinkedGroup;
  canEdit: boolean;
}

export function LinkedGroupView({ guildId, group, canEdit }: Props) {
  const unlink = useUnlinkGroup(guildId);
  const [confirming, setConfirming] = useState(false);
  const [auditOpen, setAuditOpen] = useState(false);
  const pageUrl = groupPageUrl(usePublicConfig()?.vrchatWebUrl, group.id);

  const doUnlink = () =>
    unlink.mutate(undefined, {
      onSuccess: () => setConfirming(false),
      onError: (error) =>
        notify({ type: 'error', message: failureSentence('Failed to unlink the group.', error) }),
    });

  return (
    <Stack gap="lg">
      <EntityHeader icon={group.iconUrl} name={group.name} subtitle="VRChat Settings" />
      <StatCards stats={{ Members: group.memberCount, 'Online Members': group.onlineMemberCount }} />
      <BotAccountNote account={group.botAccount} tense="serves" />
      <Group>
        <ExternalLinkButton href={pageUrl} size="sm">
          Open Group Page
        </ExternalLinkButton>
        <Button variant="default" disabled={!canEdit} onClick={() => setAuditOpen(true)}>
          View Audit Log
        </Button>
        <Button color="red" variant="light" disabled={!canEdit} onClick={() => setConfirming(true)}>
          Unlink Group
        </Button>
      </Group>
      <GroupSettings guildId={guildId} group={group} canEdit={canEdit} />
      <AuditLogDialog guildId={guildId} opened={auditOpen} onClose={() => setAuditOpen(false)} />
      <ConfirmDialog
        opened={confirming}
        title="Unlink Confirmation"
        confirmLabel="Unlink"
        confirmColor="red"
        loading={unlink.isPending}
        onConfirm={doUnlink}
        onCancel={() => setConfirming(false)}
      >
        Are you sure you want to unlink this group?
      </ConfirmDialog>
    </Stack>
  );
}
