import { Accordion, Badge, Group } from '@mantine/core';
import { useState } from 'react';
import { TruncatedName } from '../../../components/TruncatedName';
import type { ManageableGuild } from '../../../lib/guild-access/api/guilds';
import type { WorldsResponse } from '../api/worlds';
import { WorldCard } from './WorldCard';
import { focusAfterDelete } from './worldFocus';

/** Which worlds are open: the first one until the person opens or closes one; ids of deleted worlds drop out. */
export function useOpenWorlds(worldIds: string[]) {
  const [chosen, setChosen] = useState<string[] | null>(null);
  const open = (chosen ?? worldIds.slice(0, 1)).filter((id) => worldIds.includes(id));
  return {
    open,
    setOpen: setChosen,
    reveal: (id: string) => setChosen([...open.filter((o) => o !== id), id]),
  };
}

interface Props {
  guild: ManageableGuild;
  worlds: WorldsResponse;
  open: string[];
  onChange: (open: string[]) => void;
}

/**
 * The worlds as a list: each world's name is a button (in an h3) that opens or closes its settings, so three
 * worlds are three lines, not three long forms. ↑/↓, Home and End move between the names (Mantine's
 * Accordion); several can be open at once.
 */
export function WorldAccordion({ guild, worlds, open, onChange }: Props) {
  const ids = worlds.worlds.map((w) => w.id);
  return (
    <Accordion multiple value={open} onChange={onChange} order={3} variant="separated" chevronPosition="left">
      {worlds.worlds.map((world) => (
        <Accordion.Item key={world.id} value={world.id}>
          <Accordion.Control data-world-toggle={world.id}>
            <Group gap="xs" wrap="nowrap" miw={0}>
              <TruncatedName name={world.name} fw={600} />
              {/* Said after the name, so the button's name starts with its visible text. */}
              <Badge variant="light" color={world.locked ? 'yellow' : 'gray'} style={{ flexShrink: 0 }}>
                {world.locked ? 'Locked' : 'Unlocked'}
              </Badge>
            </Group>
          </Accordion.Control>
          <Accordion.Panel>
            <WorldCard
              guild={guild}
              world={world}
              roles={worlds}
              focusAfterDelete={() => focusAfterDelete(ids, world.id)}
            />
          </Accordion.Panel>
        </Accordion.Item>
      ))}
    </Accordion>
  );
}
