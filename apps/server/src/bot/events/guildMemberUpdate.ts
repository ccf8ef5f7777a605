import type { Client, GatewayGuildMemberUpdateDispatchData } from 'discord.js';
import type { AppContext } from '../../kernel/context.js';
import { requestGuildSync } from '../../kernel/sync-trigger.js';
import { memberChanged } from '../../wings/access/members/member-mirror.events.js';
import { reconcileHostGuests } from '../../wings/community/guests/guests.reconcile.js';
import { discordWritesInFlight, onlyOwnWrites } from '../../wings/group-sync/sync/own-writes.js';
import { onDispatch } from './raw.js';

const sameRoles = (a: string[], b: string[]) => a.length === b.length && a.every((r) => b.includes(r));

/**
 * A member changed (roles, nickname, avatar): the mirror follows first, then, if their roles changed
 * and they host guests, their newest guests beyond the remaining slots go (reading the new roles).
 * A role change asks for a sync, unless it is only the sync's own writes coming back: the writes in flight
 * are read before the mirror, so a write recorded meanwhile is already in the mirror's "before".
 */
export function onGuildMemberUpdate(client: Client, ctx: AppContext): () => void {
  return onDispatch<GatewayGuildMemberUpdateDispatchData>(
    client,
    ctx.log,
    'GUILD_MEMBER_UPDATE',
    async (d) => {
      const log = { guildId: d.guild_id, userId: d.user.id };
      let before: string[] | null;
      let inFlight = new Map<string, boolean>();
      try {
        // The writes in flight are read in the event's place in the guild's queue (see memberChanged).
        before = await memberChanged(ctx, d.guild_id, d, async () => {
          inFlight = await discordWritesInFlight(ctx.db, d.guild_id, d.user.id);
        });
      } catch (err) {
        ctx.log.error({ err, ...log }, 'Members: could not store a member change');
        return;
      }
      if (before && sameRoles(before, d.roles)) return;
      if (!before || !onlyOwnWrites(before, d.roles, inFlight)) {
        // Role changes drive the group sync (mappings), the auto roles and, for the bot, what it may manage.
        await requestGuildSync(ctx, d.guild_id, d.user.id === client.user?.id ? 'access' : 'roles');
      }
      try {
        await reconcileHostGuests(ctx, d.guild_id, d.user.id);
      } catch (err) {
        ctx.log.error({ err, ...log }, 'Guest slots: reconcile failed');
      }
    },
  );
}
