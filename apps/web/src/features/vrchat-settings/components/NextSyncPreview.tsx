import { Alert, Stack, Text, Title } from '@mantine/core';
import { useSyncPreview } from '../../../lib/sync/api/sync';
import { countPhrases, discordOnly, durationWords, plural } from '../../../lib/sync/syncWords';
import { VrchatSlowNotice, vrchatFailureSentence } from '../../../lib/vrchat-wait';
import { SyncActionTable } from './SyncActionTable';

interface Props {
  guildId: string;
  /** The Groups feature: off means only Discord role actions apply. */
  groupEnabled: boolean;
}

/** A dry run of the next sync: counts in words, the first actions, and what limits it. */
export function NextSyncPreview({ guildId, groupEnabled }: Props) {
  const preview = useSyncPreview(guildId);

  const body = () => {
    if (preview.isPending)
      return (
        <Stack gap="xs">
          <Text size="sm">Loading..</Text>
          <VrchatSlowNotice pending />
        </Stack>
      );
    if (preview.isError)
      return (
        <Text size="sm" c="red" role="alert">
          {vrchatFailureSentence('Failed to load the next sync.', preview.error)}
        </Text>
      );
    const data = preview.data;
    const { counts, actions } = groupEnabled ? data : discordOnly(data.counts, data.actions);
    const phrases = countPhrases(counts);
    const total = groupEnabled ? data.total : Object.values(counts).reduce((sum, n) => sum + n, 0);
    return (
      <Stack gap="xs">
        {!data.complete && groupEnabled && (
          <Text size="sm" c="dimmed">
            This group is too large for VRChat to list; Auto Remove only sees the members the bot has seen.
          </Text>
        )}
        {data.wouldHold > 0 && groupEnabled && (
          <Alert color="yellow" variant="light" p="xs">
            {`The next sync would hold back ${plural(data.wouldHold, ['removal', 'removals'])} for review.`}
          </Alert>
        )}
        {phrases.length === 0 ? (
          <Text size="sm">Nothing to change.</Text>
        ) : (
          <>
            <Text size="sm" fw={500}>
              {phrases.join(', ')}
            </Text>
            {data.estimatedSeconds > 0 && (
              <Text size="xs" c="dimmed">
                {`About ${durationWords(data.estimatedSeconds)} at the platforms' pace (VRChat takes one request a second).`}
              </Text>
            )}
            <SyncActionTable actions={actions} label="Next sync actions" />
            {total > actions.length && (
              <Text size="xs" c="dimmed">
                {`Showing the first ${actions.length} of ${total} changes.`}
              </Text>
            )}
          </>
        )}
      </Stack>
    );
  };

  return (
    <Stack gap="xs">
      <Title order={4}>Next sync</Title>
      {body()}
    </Stack>
  );
}
