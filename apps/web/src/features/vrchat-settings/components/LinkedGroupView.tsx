import { Avatar, Button, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { usePublicConfig } from '../../../api/publicConfig';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { ExternalLinkButton } from '../../../components/ExternalLinkButton';
import { notify } from '../../../components/toasts';
import { AuditLogDialog } from '../../audit-log';
import type { LinkedGroup } from '../api/linkedGroup';
import { useUnlinkGroup } from '../api/unlinkGroup';
import { groupPageUrl } from '../groupId';
import { GroupSettings } from './GroupSettings';

function Count({ label, value }: { label: string; value: number }) {
  return (
    <Paper withBorder p="sm">
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={700} size="xl">
        {value}
      </Text>
    </Paper>
  );
}

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
      onError: (error) => notify({ type: 'error', message: `Failed to unlink the group: ${error.message}` }),
    });

  return (
    <Stack gap="lg">
      <Group>
        <Avatar src={group.iconUrl} alt="" size="lg" radius="md">
          {group.name.slice(0, 1)}
        </Avatar>
        <div>
          <Title order={2} size="h3">
            {group.name}
          </Title>
          <Text c="dimmed">VRChat Settings</Text>
        </div>
      </Group>
      <SimpleGrid cols={2} maw={420}>
        <Count label="Members" value={group.memberCount} />
        <Count label="Online Members" value={group.onlineMemberCount} />
      </SimpleGrid>
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
