import { Group, Tooltip } from '@mantine/core';
import { ExternalLinkButton } from '../../../components/ExternalLinkButton';
import type { World } from '../api/worlds';

/** Where the world downloads its data: the GitHub Pages mirror (trusted) and this site (untrusted). */
export function WorldLinks({ world }: { world: World }) {
  return (
    <Group gap="xs">
      <Tooltip
        label="No GitHub Pages mirror is configured, so there is no Trusted URL."
        disabled={world.trustedUrl !== null}
      >
        <span data-testid="trusted-url">
          <ExternalLinkButton href={world.trustedUrl ?? undefined}>Trusted URL</ExternalLinkButton>
        </span>
      </Tooltip>
      <ExternalLinkButton href={world.untrustedUrl}>Untrusted URL</ExternalLinkButton>
    </Group>
  );
}
