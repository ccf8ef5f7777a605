import { Alert, Badge, Button, Center, Group, Loader, Modal, Stack } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconCrown, IconUserPlus, IconUsers } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { failureSentence } from '../../../lib/failure-sentence';
import { guestInfoQuery } from '../api/guestInfo';
import { freeSlots, slotsLabel } from '../freeSlots';
import { AddGuestPanel } from './AddGuestPanel';
import { GuestTable } from './GuestTable';

/** The dialog's content; it unmounts on close, which drops its state and (gcTime 0) its cached data. */
function GuestSetup({ guildId }: { guildId: string }) {
  const info = useQuery(guestInfoQuery(guildId));
  const [adding, setAdding] = useState(false);

  if (info.isPending) {
    return (
      <Center py="xl">
        <Loader aria-label="Loading guests" />
      </Center>
    );
  }
  if (info.isError) {
    return (
      // Said once, here in the dialog (no toast as well), with the server's reason.
      <Alert color="red" variant="light" role="alert">
        {failureSentence('Failed to load guests.', info.error)}
      </Alert>
    );
  }

  const { slotsCount, primaryRoleName, guestRoleName, guests } = info.data;
  const free = freeSlots(slotsCount, guests.length);
  return (
    <Stack gap="md">
      <Group justify="space-between" gap="sm">
        <Group gap="xs" role="group" aria-label="Guest roles">
          <Badge variant="light" leftSection={<IconCrown size={12} />} title="Your role">
            {primaryRoleName}
          </Badge>
          <Badge variant="light" color="teal" leftSection={<IconUsers size={12} />} title="Guest role">
            {guestRoleName}
          </Badge>
          <Badge variant="light" color={free > 0 ? 'gray' : 'orange'}>
            {slotsLabel(slotsCount, guests.length)}
          </Badge>
        </Group>
        <Button
          leftSection={<IconUserPlus size={16} />}
          variant={adding ? 'light' : 'filled'}
          aria-expanded={adding}
          disabled={free <= 0 && !adding}
          onClick={() => setAdding((open) => !open)}
        >
          Add Guest
        </Button>
      </Group>
      {adding && <AddGuestPanel guildId={guildId} free={free} />}
      <GuestTable guildId={guildId} guests={guests} />
    </Stack>
  );
}

interface Props {
  guild: { id: string; name: string } | null;
  opened: boolean;
  onClose: () => void;
}

/** Setup Guests: extra large, titled with the server name; full screen on phones. */
export function SetupGuestsDialog({ guild, opened, onClose }: Props) {
  const isPhone = useMediaQuery('(max-width: 36em)');
  return (
    <Modal
      opened={opened && guild !== null}
      onClose={onClose}
      title={guild?.name}
      size="xl"
      fullScreen={isPhone}
    >
      {guild && <GuestSetup key={guild.id} guildId={guild.id} />}
    </Modal>
  );
}
