import { Box, Drawer, Stack } from '@mantine/core';
import { NavLinks } from './NavLinks';
import { UserSection } from './UserSection';

interface Props {
  opened: boolean;
  onClose: () => void;
}

/** The navigation menu on a phone. Its own chunk (the drawer brings the modal and scroll code): AppLayout loads it on the first tap on the menu button. */
export function PhoneMenu({ opened, onClose }: Props) {
  return (
    <Drawer opened={opened} onClose={onClose} hiddenFrom="sm" size="80%" title="VRCLink" zIndex={300}>
      <Stack component="nav" aria-label="Main" gap={4}>
        <NavLinks onNavigate={onClose} />
      </Stack>
      <Box mt="xl">
        <UserSection onNavigate={onClose} stacked />
      </Box>
    </Drawer>
  );
}
