import { Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconCopy, IconPlus } from '@tabler/icons-react';
import { notify } from '../../../components/toasts';
import { addToVccUrl } from '../latestPackages';

export const COPIED_MESSAGE = 'Repository address copied.';
export const COPY_FAILED_MESSAGE = 'Could not copy the address. Select it and copy it by hand.';

async function copyAddress(url: string): Promise<void> {
  try {
    // navigator.clipboard is missing outside secure contexts (plain http on another host).
    if (!navigator.clipboard) throw new Error('Clipboard API unavailable');
    await navigator.clipboard.writeText(url);
    notify({ message: COPIED_MESSAGE, type: 'success' });
  } catch (error) {
    console.debug('Copying the repository address failed', error);
    notify({ message: COPY_FAILED_MESSAGE, type: 'error' });
  }
}

/** The listing address with the Creator Companion deep link and a copy button. */
export function RepositoryAddress({ url }: { url: string }) {
  return (
    <Paper withBorder p="lg" radius="md">
      <Stack gap="sm">
        <Title order={2} fz="h4">
          Package repository
        </Title>
        <Text c="dimmed" size="sm">
          Add this repository to the VRChat Creator Companion (VCC) to install and update the VRCLink packages
          in your projects.
        </Text>
        <TextInput
          label="Repository address"
          value={url}
          readOnly
          onFocus={(event) => event.currentTarget.select()}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
        />
        <Group gap="sm">
          <Button component="a" href={addToVccUrl(url)} leftSection={<IconPlus size={18} />}>
            Add to VCC
          </Button>
          <Button variant="default" onClick={() => copyAddress(url)} leftSection={<IconCopy size={18} />}>
            Copy
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
