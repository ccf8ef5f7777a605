import { userActor } from '../../kernel/actor.js';
import { previewGuildSync, requestSyncNow } from '../../wings/group-sync/sync/sync.service.js';
import type { SyncActionKind } from '../../wings/group-sync/sync/sync-plan.js';
import { inServers, type SlashCommand } from './command.js';

/** Each kind of sync action in words: one, and more than one. */
const actionNames: Record<SyncActionKind, [string, string]> = {
  invite: ['group invite', 'group invites'],
  acceptRequest: ['join request to accept', 'join requests to accept'],
  remove: ['group removal', 'group removals'],
  addGroupRole: ['group role to give', 'group roles to give'],
  removeGroupRole: ['group role to take away', 'group roles to take away'],
  addDiscordRole: ['Discord role to give', 'Discord roles to give'],
  removeDiscordRole: ['Discord role to take away', 'Discord roles to take away'],
};

/** "3 actions (2 Discord roles to give, 1 group invite)", or that there is nothing to do. */
export function describeSyncActions(total: number, counts: Record<string, number>): string {
  if (total === 0) return 'nothing needs changing right now';
  const parts = Object.entries(counts)
    .filter(([, n]) => n > 0)
    .map(([kind, n]) => `${n} ${actionNames[kind as SyncActionKind]?.[n === 1 ? 0 : 1] ?? kind}`);
  return `${total} ${total === 1 ? 'action' : 'actions'} (${parts.join(', ')})`;
}

/**
 * `/sync`: the dashboard's 'Sync now' for this server. Needs the Admin permission here (Discord's owner
 * and server managers have it, and whoever an admin granted it to), like the Sync tab.
 */
export const syncCommand: SlashCommand = {
  definition: {
    name: 'sync',
    description: "Sync this server's roles and VRChat group now (server admins)",
    ...inServers,
  },
  deferred: true,
  async run(interaction, ctx) {
    const actor = userActor(interaction.user.id);
    // The dry run reads the VRChat group; it also checks the Admin permission first.
    const preview = await previewGuildSync(ctx, actor, interaction.guildId);
    const { queued } = await requestSyncNow(ctx, actor, interaction.guildId);
    const actions = describeSyncActions(preview.total, preview.counts);
    const held = preview.wouldHold
      ? ` ${preview.wouldHold} removals will be held for approval in the Sync tab (too many at once).`
      : '';
    return queued
      ? `A sync of this server is queued: ${actions}.${held}`
      : `A sync of this server is already waiting to run: ${actions}.${held}`;
  },
};
