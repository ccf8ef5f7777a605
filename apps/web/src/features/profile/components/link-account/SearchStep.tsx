import { Button, Group, Loader, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { errorMessage } from '../../../../api/errors';
import { VrchatSlowNotice, vrchatRetrySentence } from '../../../../lib/vrchat-wait';
import { useVrchatUserSearch, type VrchatUserResult } from '../../api/searchVrchatUsers';
import { RowList } from '../RowList';
import { VrchatUserAvatar } from './VrchatUserAvatar';

export const ACCOUNT_SEARCH_DEBOUNCE_MS = 1500;

interface Props {
  text: string;
  onTextChange: (text: string) => void;
  onPick: (user: VrchatUserResult) => void;
  /** The result whose check is running. */
  checkingId: string | null;
}

/** Step 0: find the VRChat account by name, usr_ id or profile URL (searched 1.5 s after typing stops). */
export function SearchStep({ text, onTextChange, onPick, checkingId }: Props) {
  const [query, , { flush }] = useDebouncedValue(text, ACCOUNT_SEARCH_DEBOUNCE_MS);
  const search = useVrchatUserSearch(query);
  const typing = text.trim() !== query.trim();
  const hasQuery = query.trim().length > 0;

  let results: ReactNode = null;
  if (typing || (hasQuery && search.isFetching)) {
    results = (
      <Group gap="xs" c="dimmed">
        <Loader size="xs" />
        <Text size="sm">Searching…</Text>
      </Group>
    );
    if (!typing)
      results = (
        <Stack gap="xs">
          {results}
          <VrchatSlowNotice pending />
        </Stack>
      );
  } else if (search.isError) {
    results = (
      <Text size="sm" c="red" role="alert">
        {vrchatRetrySentence(search.error) ?? errorMessage(search.error, 'VRChat search failed')}
      </Text>
    );
  } else if (hasQuery && search.data?.length === 0) {
    results = (
      <Text size="sm" c="dimmed">
        No results.
      </Text>
    );
  } else if (hasQuery && search.data) {
    results = (
      <RowList gap="xs" label="Search results">
        {search.data.map((user) => (
          <RowList.Row key={user.id} label={user.displayName} wrap="nowrap">
            <Group gap="sm" wrap="nowrap" miw={0}>
              <VrchatUserAvatar user={user} />
              <Stack gap={0} miw={0}>
                <Text fw={500} truncate>
                  {user.displayName}
                </Text>
                <Text size="xs" c="dimmed" ff="monospace" truncate>
                  {user.id}
                </Text>
              </Stack>
            </Group>
            <Button
              size="xs"
              onClick={() => onPick(user)}
              loading={checkingId === user.id}
              disabled={checkingId !== null && checkingId !== user.id}
              // The name truncates on a phone; the button keeps its whole label.
              style={{ flexShrink: 0 }}
            >
              Link
            </Button>
          </RowList.Row>
        ))}
      </RowList>
    );
  }

  return (
    <Stack gap="md">
      <TextInput
        label="VRChat account"
        description="Your VRChat username, user ID (usr_…) or profile URL."
        placeholder="usr_… or https://vrchat.com/home/user/…"
        leftSection={<IconSearch size={16} />}
        value={text}
        onChange={(event) => onTextChange(event.currentTarget.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') flush();
        }}
        data-autofocus
        autoComplete="off"
      />
      {results}
    </Stack>
  );
}
