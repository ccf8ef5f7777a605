import { Group, Tooltip } from '@mantine/core';
import { ExternalLinkButton } from '../../../components/ExternalLinkButton';
import type { World } from '../api/worlds';

/** Why the Trusted URL is as it is: no mirror, a world the mirror does not publish, or how fresh it is. */
function trustedUrlHint(world: World): string {
  if (world.trustedUrl === null) return 'No GitHub Pages mirror is configured, so there is no Trusted URL.';
  if (!world.enabled) return 'Turn on Github Updates Enabled to publish this world to the mirror.';
  return 'The GitHub Pages mirror: updated at most every 10 minutes, when the data changed.';
}

/** Where the world downloads its data: the GitHub Pages mirror (trusted) and this site (untrusted). */
export function WorldLinks({ world }: { world: World }) {
  return (
    <Group gap="xs">
      <Tooltip label={trustedUrlHint(world)} multiline w={260}>
        <span data-testid="trusted-url">
          <ExternalLinkButton href={world.trustedUrl ?? undefined}>Trusted URL</ExternalLinkButton>
        </span>
      </Tooltip>
      <ExternalLinkButton href={world.untrustedUrl}>Untrusted URL</ExternalLinkButton>
    </Group>
  );
}
