import { Badge, Tooltip } from '@mantine/core';
import { useWorldRequestCount } from '../api/worldRequests';

/** 'Requests (24 h)': how often worlds downloaded this world's data; nothing until the counts load. */
export function WorldRequests({ guildId, worldId }: { guildId: string; worldId: string }) {
  const count = useWorldRequestCount(guildId, worldId);
  if (count === undefined) return null;
  return (
    <Tooltip label="Downloads of this world's data in the last 24 hours, updated every minute.">
      <Badge variant="light" color="gray" size="lg" tt="none" data-testid="world-requests">
        Requests (24 h): {count.toLocaleString('en')}
      </Badge>
    </Tooltip>
  );
}
