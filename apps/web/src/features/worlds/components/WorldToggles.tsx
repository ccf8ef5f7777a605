import { SimpleGrid, Stack, Switch, Text } from '@mantine/core';
import type { WorldChange } from '../api/updateWorld';
import type { World } from '../api/worlds';

type ToggleKey = 'compression' | 'jsonMode' | 'enabled' | 'includeDiscordData' | 'includeGroupData';

const toggles: { key: ToggleKey; label: string; description: (world: World) => string }[] = [
  {
    key: 'compression',
    label: 'Compression',
    description: (w) =>
      w.compression
        ? 'Compression cannot be turned off once on.'
        : 'Serve the data compressed. Cannot be turned off once on.',
  },
  {
    key: 'jsonMode',
    label: 'JSON Custom Data Mode',
    description: () => 'Custom World Data must be valid JSON and is embedded as JSON.',
  },
  {
    key: 'enabled',
    label: 'Github Updates Enabled',
    description: () => 'Also publish the data to the GitHub Pages mirror (the Trusted URL).',
  },
  {
    key: 'includeDiscordData',
    label: 'Include Discord Data',
    description: () => 'List the members of the chosen Discord roles.',
  },
  {
    key: 'includeGroupData',
    label: 'Include Group Data',
    description: () => 'List the members of the chosen VRChat group roles.',
  },
];

interface Props {
  world: World;
  readOnly: boolean;
  onSave: (change: WorldChange) => void;
}

/** The world's switches; each change is saved at once. */
export function WorldToggles({ world, readOnly, onSave }: Props) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
      {toggles.map(({ key, label, description }) => (
        <Stack key={key} gap={4}>
          <Switch
            label={label}
            // Named with the world ("Compression for Hangout Lobby"): every world has these five.
            aria-label={`${label} for ${world.name}`}
            aria-describedby={`${world.id}-${key}-hint`}
            checked={world[key]}
            disabled={readOnly || (key === 'compression' && world.compression)}
            onChange={(event) => onSave({ [key]: event.currentTarget.checked })}
          />
          {/* Outside the label, so the switch is named by its label alone. */}
          <Text id={`${world.id}-${key}-hint`} size="xs" c="dimmed">
            {description(world)}
          </Text>
        </Stack>
      ))}
    </SimpleGrid>
  );
}
