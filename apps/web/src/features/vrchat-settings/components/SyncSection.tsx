import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { errorMessage } from '../../../api/errors';
import { notify } from '../../../components/toasts';
import type { LinkedGroup } from '../api/linkedGroup';
import { useInvalidateSync, useRunSync, useSyncStatus } from '../api/sync';
import { syncQueuedMessage, timeAgo } from '../syncWords';
import { NextSyncPreview } from './NextSyncPreview';
import { SyncWarnings } from './SyncWarnings';

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

function LastSync({ guildId }: { guildId: string }) {
  const status = useSyncStatus(guildId);
  if (status.isPending) return <Text size="sm">Last sync: Loading..</Text>;
  if (status.isError)
    return (
      <Text size="sm" c="red" role="alert">
        {`Failed to load the sync status. ${errorMessage(status.error, '')}`.trim()}
      </Text>
    );
  const { lastRunAt, lastResult } = status.data;
  const result = lastResult
    ? ` · ${lastResult.applied} applied, ${lastResult.failed} failed${lastResult.held ? `, ${lastResult.held} held` : ''}`
    : '';
  return (
    <Text size="sm">
      Last sync:{' '}
      {lastRunAt ? (
        <time dateTime={lastRunAt} title={new Date(lastRunAt).toLocaleString()}>
          {timeAgo(lastRunAt)}
        </time>
      ) : (
        'Never'
      )}
      {result}
    </Text>
  );
}

interface Props {
  guildId: string;
  group: LinkedGroup;
}

/** Sync now, the last run, warnings and what the next sync would do (Admin only). */
export function SyncSection({ guildId, group }: Props) {
  const run = useRunSync(guildId);
  useRefreshOnSettings(guildId, group);

  const syncNow = () =>
    run.mutate(undefined, {
      onSuccess: (answer) =>
        notify({ type: answer.queued ? 'success' : 'info', message: syncQueuedMessage(answer) }),
      onError: (error) => notify({ type: 'error', message: errorMessage(error, 'Failed to queue a sync.') }),
    });

  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="sync-title">
      <Group justify="space-between" mb="md" wrap="wrap">
        <Title order={3} id="sync-title">
          Sync
        </Title>
        <Button onClick={syncNow} loading={run.isPending} disabled={run.isPending}>
          Sync now
        </Button>
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
