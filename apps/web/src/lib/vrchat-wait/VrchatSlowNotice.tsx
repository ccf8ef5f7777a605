import { Group, Text } from '@mantine/core';
import { IconHourglass } from '@tabler/icons-react';
import { useSlow, VRCHAT_SLOW } from './vrchatWait';

/**
 * Under a wait on VRChat: after 3 s says that VRChat is slow and the request is still running, so the page is
 * not only a spinner. The status region is there for the whole wait, so a screen reader hears the sentence.
 */
export function VrchatSlowNotice({ pending }: { pending: boolean }) {
  const slow = useSlow(pending);
  if (!pending) return null;
  return (
    <div role="status">
      {slow && (
        <Group gap={6} wrap="nowrap" c="dimmed">
          <IconHourglass size={16} aria-hidden style={{ flexShrink: 0 }} />
          <Text size="sm">{VRCHAT_SLOW}</Text>
        </Group>
      )}
    </div>
  );
}
