import { Button, Group, Modal, Paper, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useState } from 'react';
import { errorMessage } from '../../../api/errors';
import { NameAvatar } from '../../../components/NameAvatar';
import { TableScroll } from '../../../components/TableScroll';
import { notify } from '../../../components/toasts';
import type { Guest } from '../api/guestInfo';
import { useUnassignGuest } from '../api/unassignGuest';

const orNA = (value: string | null) => value ?? 'N/A';
const guestName = (guest: Guest) => guest.guestUsername ?? guest.guestVrcName ?? guest.guestVrcId ?? 'guest';

/** The host's guests with an Unassign button each (confirmed first); one card per guest on phones. */
export function GuestTable({ guildId, guests }: { guildId: string; guests: Guest[] }) {
  const unassign = useUnassignGuest(guildId);
  const [asking, setAsking] = useState<Guest | null>(null);
  const [lastAsked, setLastAsked] = useState<Guest | null>(null);
  const isPhone = useMediaQuery('(max-width: 36em)');

  const confirm = () => {
    if (!asking) return;
    setAsking(null);
    unassign.mutate(asking.id, {
      onSuccess: () => notify({ type: 'success', message: 'Guest unassigned.' }),
      onError: (error) => notify({ type: 'error', message: errorMessage(error, 'Failed to unassign guest') }),
    });
  };

  if (guests.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        No guests found for this server.
      </Text>
    );
  }

  const avatar = (guest: Guest) => (
    <NameAvatar src={guest.guestProfilePicUrl} name={guestName(guest)} size="sm" />
  );
  const unassignButton = (guest: Guest, fullWidth = false) => (
    <Button
      size="xs"
      variant="light"
      color="red"
      fullWidth={fullWidth}
      aria-label={`Unassign ${guestName(guest)}`}
      loading={unassign.isPending && unassign.variables === guest.id}
      onClick={() => {
        setAsking(guest);
        setLastAsked(guest);
      }}
    >
      Unassign
    </Button>
  );

  const list = isPhone ? (
    <Stack component="ul" gap="xs" p={0} m={0} aria-label="Guests" style={{ listStyle: 'none' }}>
      {guests.map((guest) => (
        <Paper component="li" key={guest.id} withBorder p="sm" radius="md" aria-label={guestName(guest)}>
          <Stack gap="xs">
            <Group gap="sm" wrap="nowrap" miw={0}>
              {avatar(guest)}
              <Stack gap={0} miw={0}>
                <Text size="sm" fw={500} truncate>
                  {orNA(guest.guestUsername)}
                </Text>
                <Text size="sm" truncate>
                  VRChat: {orNA(guest.guestVrcName)}
                </Text>
                <Text size="xs" ff="monospace" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                  {orNA(guest.guestVrcId)}
                </Text>
              </Stack>
            </Group>
            {unassignButton(guest, true)}
          </Stack>
        </Paper>
      ))}
    </Stack>
  ) : (
    <TableScroll label="Guests table" minWidth={560}>
      <Table verticalSpacing="xs" aria-label="Guests">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Discord user</Table.Th>
            <Table.Th>VRChat name</Table.Th>
            <Table.Th>VRChat ID</Table.Th>
            <Table.Th>
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {guests.map((guest) => (
            <Table.Tr key={guest.id}>
              <Table.Td>
                <Group gap="sm" wrap="nowrap">
                  {avatar(guest)}
                  <Text size="sm">{orNA(guest.guestUsername)}</Text>
                </Group>
              </Table.Td>
              <Table.Td>{orNA(guest.guestVrcName)}</Table.Td>
              <Table.Td>
                <Text size="xs" ff="monospace">
                  {orNA(guest.guestVrcId)}
                </Text>
              </Table.Td>
              <Table.Td ta="right">{unassignButton(guest)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </TableScroll>
  );

  return (
    <>
      {list}
      <Modal opened={asking !== null} onClose={() => setAsking(null)} title="Unassign Guest" centered>
        <Text size="sm">
          Remove {lastAsked ? guestName(lastAsked) : 'this guest'} as your guest? A Discord guest loses the
          guest role.
        </Text>
        <Group justify="flex-end" mt="lg">
          <Button variant="default" onClick={() => setAsking(null)}>
            Cancel
          </Button>
          <Button color="red" onClick={confirm} data-autofocus>
            Unassign Guest
          </Button>
        </Group>
      </Modal>
    </>
  );
}
