import { Button, Group, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconShieldCheck } from '@tabler/icons-react';

/** Step 2: linked with ownership proven. */
export function VerifiedStep({ onClose }: { onClose: () => void }) {
  return (
    <Stack gap="md" align="center" ta="center">
      <ThemeIcon size={56} radius="xl" color="green" variant="light">
        <IconShieldCheck size={32} />
      </ThemeIcon>
      <Title order={3}>Account Ownership Verified</Title>
      <Text c="dimmed" size="sm">
        Your VRChat account is linked and its ownership is verified. You can remove the code from your bio.
      </Text>
      <Group justify="center">
        <Button onClick={onClose} data-autofocus>
          Close
        </Button>
      </Group>
    </Stack>
  );
}
