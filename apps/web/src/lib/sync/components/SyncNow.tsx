import { Button, Group, Text } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { errorMessage } from '../../../api/errors';
import { notify } from '../../../components/toasts';
import { useInvalidateSync, useRunSync, useSyncStatus } from '../api/sync';
import { queuedStatus, syncQueuedMessage, timeAgo, timeUntil } from '../syncWords';

/**
 * The last sync and its result, a sync waiting or running now (the status is asked again every few seconds
 * until it is done, so 'Last sync' moves on without a reload), and when the scheduled one is due.
 */
export function LastSync({ guildId }: { guildId: string }) {
  const status = useSyncStatus(guildId);
  const invalidate = useInvalidateSync(guildId);
  const busy = Boolean(status.data?.activity);
  const wasBusy = useRef(busy);
  useEffect(() => {
    // A sync just finished: what the next one would do changed too.
    if (wasBusy.current && !busy) void invalidate();
    wasBusy.current = busy;
  }, [busy, invalidate]);

  if (status.isPending) return <Text size="sm">Last sync: Loading..</Text>;
  if (status.isError)
    return (
      <Text size="sm" c="red" role="alert">
        {`Failed to load the sync status. ${errorMessage(status.error, '')}`.trim()}
      </Text>
    );
  const { lastRunAt, lastResult, activity, nextRunAt, queue } = status.data;
  const result = lastResult
    ? ` · ${lastResult.applied} applied, ${lastResult.failed} failed${lastResult.held ? `, ${lastResult.held} held` : ''}`
    : '';
  return (
    <div>
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
      {activity && (
        <Text size="sm" c="blue" role="status">
          {activity.state === 'running' ? 'A sync is running now…' : queuedStatus(queue)}
        </Text>
      )}
      {nextRunAt && (
        <Text size="xs" c="dimmed">
          {`Next scheduled sync ${timeUntil(nextRunAt)}.`}
        </Text>
      )}
    </div>
  );
}

/** Sync now: queues a sync of the server (collapsed with one already waiting). */
export function SyncNowButton({ guildId }: { guildId: string }) {
  const run = useRunSync(guildId);
  const syncNow = () =>
    run.mutate(undefined, {
      onSuccess: (answer) =>
        notify({ type: answer.queued ? 'success' : 'info', message: syncQueuedMessage(answer) }),
      onError: (error) => notify({ type: 'error', message: errorMessage(error, 'Failed to queue a sync.') }),
    });
  return (
    <Button onClick={syncNow} loading={run.isPending} disabled={run.isPending}>
      Sync now
    </Button>
  );
}

/** The Sync now button with the status line, for the Discord tab (auto roles sync without a group too). */
export function SyncNowRow({ guildId }: { guildId: string }) {
  return (
    <Group justify="space-between" align="flex-start" wrap="wrap">
      <LastSync guildId={guildId} />
      <SyncNowButton guildId={guildId} />
    </Group>
  );
}
