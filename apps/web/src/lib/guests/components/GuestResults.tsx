import { Badge, Button, Group, Stack, Text } from '@mantine/core';
import { NameAvatar } from '../../../components/NameAvatar';
import type { GuestSearchResult } from '../api/searchGuests';

export const resultKey = (result: GuestSearchResult) => result.discordId ?? result.vrcId ?? '';
const resultName = (result: GuestSearchResult) =>
  (result.isDiscordUser ? result.discordName : result.vrcName) ?? resultKey(result);

interface Props {
  /** undefined: no search has run yet. */
  results: GuestSearchResult[] | undefined;
  onAssign: (result: GuestSearchResult) => void;
  assigningKey: string | null;
  /** Results assigned from this panel: marked, and not offered again. */
  assignedKeys: ReadonlySet<string>;
  /** The id of the visible "no free slots" text when no slot is free: every Assign is disabled and points to it. */
  noSlotsReasonId: string | null;
}

/**
 * Search results with an Assign button each, or the spec's empty states. While one assignment runs every
 * button is disabled; who was just assigned is marked; without a free slot Assign is disabled, with the reason.
 */
export function GuestResults({ results, onAssign, assigningKey, assignedKeys, noSlotsReasonId }: Props) {
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
        const assigned = assignedKeys.has(key);
        return (
          <Group component="li" key={key} aria-label={name} justify="space-between" wrap="nowrap" gap="sm">
            <Group gap="sm" wrap="nowrap" miw={0}>
              <NameAvatar src={result.discordIcon} name={name} size="sm" />
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
              {assigned && (
                <Badge size="xs" variant="light" color="teal">
                  Assigned
                </Badge>
              )}
            </Group>
            <Button
              size="xs"
              onClick={() => onAssign(result)}
              loading={assigningKey === key}
              disabled={assigningKey !== null || assigned || noSlotsReasonId !== null}
              aria-describedby={!assigned && noSlotsReasonId ? noSlotsReasonId : undefined}
              // The name truncates on a phone; the button keeps its whole label.
              style={{ flexShrink: 0 }}
            >
              Assign
            </Button>
          </Group>
        );
      })}
    </Stack>
  );
}
