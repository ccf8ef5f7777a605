import {
  Alert,
  Button,
  Group,
  Loader,
  Paper,
  SegmentedControl,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue, useMediaQuery } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { ManageableGuild } from '../../../lib/guild-access/api/guilds';
import {
  MEMBER_SEARCH_MIN,
  type MemberSearchField,
  membersQuery,
} from '../../../lib/guild-access/api/members';
import { NoAccess } from '../../../lib/guild-access/components/NoAccess';
import { can } from '../../../lib/guild-access/tabs';
import { MemberCard } from './MemberCard';
import { MemberDetailsDialog } from './MemberDetailsDialog';
import { MembersTable } from './MembersTable';
import { type MemberFilter, memberFilterLabels, searchFieldLabels } from './memberLabels';

const searchFields = (['DiscordId', 'DiscordName', 'VrcId', 'VrcName'] as const).map((value) => ({
  value,
  label: searchFieldLabels[value],
}));
const filters = (Object.keys(memberFilterLabels) as MemberFilter[]).map((value) => ({
  value,
  label: memberFilterLabels[value],
}));

/** 'Discord Member Search': every member when the search is empty, else at least 2 characters. */
export function MembersTab({ guild }: { guild: ManageableGuild }) {
  if (!can(guild.permissions, 'ViewGuild'))
    return <NoAccess what="this server's members" permission="ViewGuild" />;
  return <MemberSearch guild={guild} />;
}

function MemberSearch({ guild }: { guild: ManageableGuild }) {
  const [text, setText] = useState('');
  const [searchBy, setSearchBy] = useState<MemberSearchField>('DiscordName');
  const [page, setPage] = useState(1);
  const [filter, setFilter] = useState<MemberFilter>('all');
  const isPhone = useMediaQuery('(max-width: 48em)');
  // Below 384 px (a 320 px phone, 400 % zoom) the four filters do not fit side by side: one above the other.
  const isNarrow = useMediaQuery('(max-width: 24em)');
  const [debounced] = useDebouncedValue(text.trim(), 250);
  const [submitted, setSubmitted] = useState<string | null>(null);
  const search = submitted ?? debounced;
  const valid = search.length === 0 || search.length >= MEMBER_SEARCH_MIN;
  const members = useQuery({ ...membersQuery(guild.id, search, searchBy, page, filter), enabled: valid });
  const [open, setOpen] = useState<string | null>(null);
  const results = members.data?.results.slice(0, 25) ?? [];
  const totalPages = members.data?.totalPages ?? 1;

  const changeText = (value: string) => {
    setText(value);
    setSubmitted(null);
    setPage(1);
  };
  return (
    <Paper withBorder p="lg">
      <Title order={2} size="h3" mb="md">
        Discord Member Search
      </Title>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          setSubmitted(text.trim());
          setPage(1);
        }}
      >
        <Group align="flex-end" mb="md">
          <Select
            label="Search By"
            data={searchFields}
            value={searchBy}
            onChange={(v) => {
              if (!v) return;
              setSearchBy(v as MemberSearchField);
              setPage(1);
            }}
            allowDeselect={false}
            w={{ base: '100%', xs: 180 }}
          />
          <TextInput
            label="Search"
            value={text}
            onChange={(e) => changeText(e.currentTarget.value)}
            error={!valid ? `Type at least ${MEMBER_SEARCH_MIN} characters.` : undefined}
            style={{ flex: 1 }}
            miw={180}
          />
          <Button type="submit" disabled={text.trim().length > 0 && text.trim().length < MEMBER_SEARCH_MIN}>
            Search
          </Button>
        </Group>
        <SegmentedControl
          aria-label="Show"
          data={filters}
          value={filter}
          onChange={(v) => {
            setFilter(v as MemberFilter);
            setPage(1);
          }}
          mb="md"
          fullWidth={isPhone}
          orientation={isNarrow ? 'vertical' : 'horizontal'}
        />
      </form>
      {members.data?.linkedOnly && (
        <Alert color="yellow" variant="light" mb="sm" title="Showing linked members only">
          Showing linked members only: the bot does not have Discord's Server Members intent, so it only keeps
          members who linked a VRChat account. The Discord tab explains how to switch it on.
        </Alert>
      )}
      <Group justify="space-between" mb="sm" gap="xs">
        <Text size="sm">Total: {members.data?.totalCount ?? 0}</Text>
        <Pager page={page} totalPages={totalPages} onPage={setPage} />
      </Group>
      {members.isError ? (
        <Alert color="red" variant="light" role="alert">
          Failed to load members.
        </Alert>
      ) : members.isPending && valid ? (
        <Loader aria-label="Loading members" />
      ) : results.length === 0 ? (
        <Text c="dimmed">No members found.</Text>
      ) : isPhone ? (
        <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Members">
          {results.map((m) => (
            <MemberCard key={m.id} member={m} onOpen={() => setOpen(m.id)} />
          ))}
        </Stack>
      ) : (
        <MembersTable members={results} onOpen={setOpen} />
      )}
      {/* Again below a long page, so the next one is not back at the top. Named apart from the top ones. */}
      {results.length > 0 && totalPages > 1 && (
        <Group justify="flex-end" mt="sm">
          <Pager page={page} totalPages={totalPages} onPage={setPage} where="bottom" />
        </Group>
      )}
      <MemberDetailsDialog
        guildId={guild.id}
        member={results.find((m) => m.id === open) ?? null}
        onClose={() => setOpen(null)}
      />
    </Paper>
  );
}

/** Previous, "Page x of y", Next; the bottom copy's buttons say "page" so no two share a name. */
function Pager({
  page,
  totalPages,
  onPage,
  where = 'top',
}: {
  page: number;
  totalPages: number;
  onPage: (page: number) => void;
  where?: 'top' | 'bottom';
}) {
  const suffix = where === 'bottom' ? ' page' : '';
  return (
    <Group gap="xs">
      <Button
        size="xs"
        variant="default"
        disabled={page <= 1}
        onClick={() => onPage(page - 1)}
        aria-label={`Previous${suffix}`}
      >
        Previous
      </Button>
      <Text size="sm">
        Page {page} of {totalPages}
      </Text>
      <Button
        size="xs"
        variant="default"
        disabled={page >= totalPages}
        onClick={() => onPage(page + 1)}
        aria-label={`Next${suffix}`}
      >
        Next
      </Button>
    </Group>
  );
}
