import { Accordion, Badge, Group } from '@mantine/core';
import { useState } from 'react';
import { TruncatedName } from '../../../components/TruncatedName';
import type { ManageableGuild } from '../../../lib/guild-access/api/guilds';
import type { WorldsResponse } from '../api/worlds';
import { WorldCard } from './WorldCard';
import { focusAfterDelete } from './worldFocus';

/** Where the tab keeps which worlds are open (this browser tab only), so they stay open across a reload. */
const openWorldsKey = (guildId: string) => `vrclink.openWorlds.${guildId}`;

function storedOpenWorlds(guildId: string): string[] | null {
  try {
    const stored = JSON.parse(sessionStorage.getItem(openWorldsKey(guildId)) ?? 'null');
    return Array.isArray(stored) && stored.every((id) => typeof id === 'string') ? stored : null;
  } catch {
    return null; // storage refused or a value from elsewhere: the default
  }
}

/**
 * Which worlds are open: the first one until the person opens or closes one; ids of deleted worlds drop out.
 * The choice outlives the page (Back from World Images, a reload) for as long as the browser tab does.
 */
export function useOpenWorlds(guildId: string, worldIds: string[]) {
  const [chosen, setChosenState] = useState<string[] | null>(() => storedOpenWorlds(guildId));
  const open = (chosen ?? worldIds.slice(0, 1)).filter((id) => worldIds.includes(id));
  const setOpen = (next: string[]) => {
    setChosenState(next);
    try {
      sessionStorage.setItem(openWorldsKey(guildId), JSON.stringify(next));
    } catch {
      // Storage full or refused: open worlds are remembered for this page only.
    }
  };
  return {
    open,
    setOpen,
    reveal: (id: string) => setOpen([...open.filter((o) => o !== id), id]),
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
