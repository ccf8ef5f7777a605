import { Alert, Button, Group, Loader, Paper, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { errorMessage } from '../../../api/errors';
import { notify } from '../../../components/toasts';
import { useAssignGuest } from '../api/assignGuest';
import { discordGuestSearchQuery, type GuestSearchResult, useVrchatGuestSearch } from '../api/searchGuests';
import { GuestResults } from './GuestResults';
import { useCooldown } from './useCooldown';

export const DISCORD_SEARCH_DEBOUNCE_MS = 300;
export const VRCHAT_SEARCH_COOLDOWN_MS = 5000;
export const NO_FREE_SLOTS = 'No free guest slots available.';

type Mode = 'discord' | 'vrchat';

/** Find a Discord member (searched as you type) or a VRChat user (on request, once per 5 s) and assign them. */
export function AddGuestPanel({ guildId, free }: { guildId: string; free: number }) {
  const [mode, setMode] = useState<Mode>('discord');
  const [text, setText] = useState('');
  const [discordText] = useDebouncedValue(text, DISCORD_SEARCH_DEBOUNCE_MS);
  const discordSearch = useQuery({
    ...discordGuestSearchQuery(guildId, discordText),
    enabled: mode === 'discord' && discordText.trim().length > 0,
  });
  const vrchat = useVrchatGuestSearch(guildId);
  const cooldown = useCooldown(VRCHAT_SEARCH_COOLDOWN_MS);
  const assign = useAssignGuest(guildId);
  // A second click before React re-renders with isPending would send a second request, whose
  // "already your guest" answer would hide that the first one worked.
  const assigning = useRef(false);
  const [assigned, setAssigned] = useState<ReadonlySet<string>>(new Set());
  const noSlotsId = useId();

  useEffect(() => {
    if (discordSearch.isError)
      notify({ type: 'error', message: errorMessage(discordSearch.error, 'Discord search failed') });
  }, [discordSearch.isError, discordSearch.error]);

  const searchVrchat = () => {
    const query = text.trim();
    if (!query || cooldown.active) return;
    cooldown.start();
    vrchat.mutate(query, {
      onError: (error) => notify({ type: 'error', message: errorMessage(error, 'VRChat search failed') }),
    });
  };

  const assignResult = (result: GuestSearchResult) => {
    if (assigning.current) return;
    if (free <= 0) {
      notify({ type: 'error', message: NO_FREE_SLOTS });
      return;
    }
    const body = result.isDiscordUser
      ? { discordId: result.discordId ?? '' }
      : { vrcId: result.vrcId ?? '', vrcDisplayName: result.vrcName ?? '' };
    assigning.current = true;
    assign.mutate(body, {
      onSettled: () => {
        assigning.current = false;
      },
      onSuccess: () => {
        setAssigned((keys) => new Set(keys).add(assignKey(body)));
        notify({ type: 'success', message: 'Guest assigned.' });
      },
      onError: (error) => notify({ type: 'error', message: errorMessage(error, 'Failed to assign guest') }),
    });
  };

  const discordResults = discordText.trim() ? discordSearch.data : undefined;
  const results = mode === 'discord' ? discordResults : vrchat.data;
  const failed = mode === 'discord' ? discordSearch.isError : vrchat.isError;
  const searching =
    mode === 'discord' ? text.trim() !== discordText.trim() || discordSearch.isFetching : vrchat.isPending;
  const assigningKey = assign.isPending && assign.variables ? assignKey(assign.variables) : null;

  return (
    <Paper withBorder p="md" radius="md" component="section" aria-label="Add guest">
      <Stack gap="sm">
        {free <= 0 && (
          <Alert id={noSlotsId} color="orange" variant="light" role="alert">
            No free guest slots.
          </Alert>
        )}
        <SegmentedControl
          value={mode}
          onChange={(value) => setMode(value as Mode)}
          data={[
            { value: 'discord', label: 'Discord Search' },
            { value: 'vrchat', label: 'VRChat Search' },
          ]}
          fullWidth
        />
        <form
          onSubmit={(event) => {
            event.preventDefault();
            if (mode === 'vrchat') searchVrchat();
          }}
        >
          <Group align="flex-end" gap="sm" wrap="nowrap">
            <TextInput
              style={{ flex: 1 }}
              label={mode === 'discord' ? 'Discord member' : 'VRChat user'}
              description={
                mode === 'discord'
                  ? 'Members of this server; results appear as you type.'
                  : 'Enter at least 3 characters for better results. One search every 5 seconds.'
              }
              placeholder={mode === 'discord' ? 'Name or username' : 'VRChat display name'}
              leftSection={<IconSearch size={16} />}
              value={text}
              onChange={(event) => setText(event.currentTarget.value)}
              autoComplete="off"
              data-autofocus
            />
            {mode === 'vrchat' && (
              <Button type="submit" disabled={!text.trim() || cooldown.active}>
                {cooldown.active ? `Cooldown ${cooldown.secondsLeft}s` : 'Search'}
              </Button>
            )}
          </Group>
        </form>
        {searching ? (
          <Group gap="xs" c="dimmed">
            <Loader size="xs" />
            <Text size="sm">Searching…</Text>
          </Group>
        ) : failed ? (
          <Text size="sm" c="red">
            {mode === 'discord' ? 'Discord search failed.' : 'VRChat search failed.'}
          </Text>
        ) : (
          <GuestResults
            results={results}
            onAssign={assignResult}
            assigningKey={assigningKey}
            assignedKeys={assigned}
            noSlotsReasonId={free <= 0 ? noSlotsId : null}
          />
        )}
      </Stack>
    </Paper>
  );
}

const assignKey = (body: { discordId: string } | { vrcId: string }) =>
  'discordId' in body ? body.discordId : body.vrcId;
