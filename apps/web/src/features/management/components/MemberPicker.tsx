import { Loader, Radio, ScrollArea, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { MEMBER_SEARCH_MIN, useMemberSearch } from '../../../lib/guild-access/api/members';

interface Props {
  guildId: string;
  value: string | null;
  onChange: (userId: string | null) => void;
}

/** Picks a member of the server by Discord name (250 ms debounce, at least 2 characters, 25 shown). */
export function MemberPicker({ guildId, value, onChange }: Props) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 250);
  const members = useMemberSearch(guildId, debounced, 'DiscordName');
  const results = debounced.length >= MEMBER_SEARCH_MIN ? (members.data?.results ?? []).slice(0, 25) : [];
  return (
    <Stack gap="xs">
      <TextInput
        label="User"
        placeholder="Search by Discord name"
        value={search}
        onChange={(e) => setSearch(e.currentTarget.value)}
        rightSection={members.isFetching ? <Loader size="xs" /> : null}
      />
      {debounced.length < MEMBER_SEARCH_MIN ? (
        <Text size="xs" c="dimmed">
          Type at least 2 characters.
        </Text>
      ) : results.length === 0 && !members.isFetching ? (
        <Text size="xs" c="dimmed">
          No options
        </Text>
      ) : (
        <ScrollArea.Autosize mah={200}>
          <Radio.Group value={value} onChange={onChange} aria-label="Members found">
            <Stack gap={6}>
              {results.map((m) => (
                <Radio key={m.id} value={m.id} label={`${m.username} (${m.id})`} />
              ))}
            </Stack>
          </Radio.Group>
        </ScrollArea.Autosize>
      )}
    </Stack>
  );
}
