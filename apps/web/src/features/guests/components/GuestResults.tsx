import { Avatar, Badge, Button, Group, Stack, Text } from '@mantine/core';
import type { GuestSearchResult } from '../api/searchGuests';

export const resultKey = (result: GuestSearchResult) => result.discordId ?? result.vrcId ?? '';
const resultName = (result: GuestSearchResult) =>
  (result.isDiscordUser ? result.discordName : result.vrcName) ?? resultKey(result);

interface Props {
  /** undefined: no search has run yet. */
  results: GuestSearchResult[] | undefined;
  onAssign: (result: GuestSearchResult) => void;
  assigningKey: string | null;
}

/** Search results with an Assign button each, or the spec's empty states. */
export function GuestResults({ results, onAssign, assigningKey }: Props) {
  if (!results) {
    return (
      <Text size="sm" c="dimmed">
        Run a search to see results.
      </Text>
    );
  }
  if (results.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        No results.
      </Text>
    );
  }
  return (
    <Stack component="ul" gap="xs" p={0} m={0} aria-label="Search results" style={{ listStyle: 'none' }}>
      {results.map((result) => {
        const key = resultKey(result);
        const name = resultName(result);
        return (
          <Group component="li" key={key} aria-label={name} justify="space-between" wrap="nowrap" gap="sm">
            <Group gap="sm" wrap="nowrap" miw={0}>
              <Avatar src={result.discordIcon ?? null} alt="" radius="xl" size="sm">
                {name.slice(0, 2).toUpperCase()}
              </Avatar>
              <Stack gap={0} miw={0}>
                <Text size="sm" fw={500} truncate>
                  {name}
                </Text>
                {!result.isDiscordUser && (
                  <Text size="xs" c="dimmed" ff="monospace" truncate>
                    {result.vrcId}
                  </Text>
                )}
              </Stack>
              {result.isDiscordUser && result.hasLinkedVrc && (
                <Badge size="xs" variant="light" color="green">
                  VRChat linked
                </Badge>
              )}
            </Group>
            <Button
              size="xs"
              onClick={() => onAssign(result)}
              loading={assigningKey === key}
              disabled={assigningKey !== null && assigningKey !== key}
            >
              Assign
            </Button>
          </Group>
        );
      })}
    </Stack>
  );
}
