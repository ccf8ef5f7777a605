import type { ManageableGuild } from '../../../lib/guild-access/api/guilds';
import { WorldList } from './WorldList';

/** The Worlds tab: the server's worlds (their image editor is the world-images feature, under `images/{worldId}`). */
export function WorldsTab({ guild }: { guild: ManageableGuild }) {
  return <WorldList guild={guild} />;
}
