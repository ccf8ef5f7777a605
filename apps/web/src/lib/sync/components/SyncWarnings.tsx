import { Alert, List } from '@mantine/core';
import { useSyncStatus } from '../api/sync';

interface Props {
  guildId: string;
  /** The status needs Admin; without it nothing is asked or shown. */
  enabled: boolean;
}

/** What keeps the last sync from doing its whole job (e.g. a role above the bot's), as the server says it. */
export function SyncWarnings({ guildId, enabled }: Props) {
  const status = useSyncStatus(guildId, enabled);
  const warnings = status.data?.warnings ?? [];
  if (!enabled || warnings.length === 0) return null;
  return (
    <Alert color="yellow" variant="light" title="Sync warnings">
      <List size="sm" spacing={4}>
        {warnings.map((warning, i) => (
          // Two warnings may share a kind; the position keeps keys unique.
          // biome-ignore lint/suspicious/noArrayIndexKey: the list is replaced as a whole, never reordered
          <List.Item key={`${warning.kind}-${i}`}>{warning.message}</List.Item>
        ))}
      </List>
    </Alert>
  );
}
