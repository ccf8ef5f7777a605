import { Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { useInvalidateSync } from '../../../lib/sync/api/sync';
import { LastSync, SyncNowButton } from '../../../lib/sync/components/SyncNow';
import { SyncWarnings } from '../../../lib/sync/components/SyncWarnings';
import type { LinkedGroup } from '../api/linkedGroup';
import { NextSyncPreview } from './NextSyncPreview';

/** The group switches change what a sync does, so the preview is asked again when they change. */
function useRefreshOnSettings(guildId: string, group: LinkedGroup) {
  const invalidate = useInvalidateSync(guildId);
  const settings = `${group.enabled}/${group.autoKick}`;
  const seen = useRef(settings);
  useEffect(() => {
    if (seen.current === settings) return;
    seen.current = settings;
    void invalidate();
  }, [settings, invalidate]);
}

interface Props {
  guildId: string;
  group: LinkedGroup;
}

/** Sync now, the last run, warnings and what the next sync would do (Admin only). */
export function SyncSection({ guildId, group }: Props) {
  useRefreshOnSettings(guildId, group);

  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="sync-title">
      <Group justify="space-between" mb="md" wrap="wrap">
        <Title order={3} id="sync-title">
          Sync
        </Title>
        <SyncNowButton guildId={guildId} />
      </Group>
      <Stack>
        <LastSync guildId={guildId} />
        {!group.enabled && (
          <Text size="sm" c="dimmed">
            Enable Groups feature to sync the group.
          </Text>
        )}
        <SyncWarnings guildId={guildId} enabled />
        <NextSyncPreview guildId={guildId} groupEnabled={group.enabled} />
      </Stack>
    </Paper>
  );
}
