import type { ManageableGuild } from '../../server-settings/api/guilds';
import { WorldImagesPlaceholder } from './WorldImagesPlaceholder';
import { WorldList } from './WorldList';

/** The Worlds tab: the list, or under `images/{worldId}` the world's image editor. */
export function WorldsTab({ guild, rest }: { guild: ManageableGuild; rest: string[] }) {
  if (rest[0] === 'images' && rest[1]) return <WorldImagesPlaceholder guildId={guild.id} />;
  return <WorldList guild={guild} />;
}
