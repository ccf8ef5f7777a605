import { z } from 'zod';
import { snowflake } from '../../../http/params.js';

export const GROUP_ID_PATTERN = /grp_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
export const INVALID_GROUP_ID = 'Group ID must be grp_ followed by a UUID.';

export const guildParams = z.object({ guildId: snowflake });

/** The VRChat bot account that serves a group: whom a manager invites to (or accepts into) the group. */
export const botAccount = z.object({ userId: z.string(), displayName: z.string() });
z.globalRegistry.add(botAccount, { id: 'BotAccount' });
export type BotAccount = z.infer<typeof botAccount>;

export const linkedGroup = z.object({
  id: z.string(),
  name: z.string(),
  iconUrl: z.string().nullable(),
  memberCount: z.number().int(),
  onlineMemberCount: z.number().int(),
  enabled: z.boolean(),
  autoKick: z.boolean(),
  /** The bot account serving the group; null when VRChat does not answer for it now. */
  botAccount: botAccount.nullable(),
});
z.globalRegistry.add(linkedGroup, { id: 'LinkedGroup' });
export type LinkedGroup = z.infer<typeof linkedGroup>;

/** Exactly one setting per call, as the tab's switches save one at a time. */
export const groupSettingsUpdate = z.union(
  [z.object({ enabled: z.boolean() }).strict(), z.object({ autoKick: z.boolean() }).strict()],
  { error: 'must be {"enabled": true or false} or {"autoKick": true or false}' },
);
export type GroupSettingsUpdate = z.infer<typeof groupSettingsUpdate>;

export const groupIdBody = z
  .object({
    groupId: z.string().regex(new RegExp(`^${GROUP_ID_PATTERN.source}$`, 'i'), INVALID_GROUP_ID),
  })
  .strict();

export const groupLinkInfo = z.object({
  id: z.string(),
  name: z.string(),
  iconUrl: z.string().nullable(),
  linkCode: z.string(),
  /** The bot account that is to serve the group (to be invited when the group is invite-only). */
  botAccount: botAccount.nullable(),
});
z.globalRegistry.add(groupLinkInfo, { id: 'GroupLinkInfo' });

export const linkCheckResult = z.object({ status: z.enum(['CodeFound', 'CodeNotFound']) });
export const linkJoinStatus = z.enum(['Member', 'Requested', 'Invited', 'Unknown', 'CodeNotFound']);
export type LinkJoinStatus = z.infer<typeof linkJoinStatus>;
export const linkJoinResult = z.object({
  status: linkJoinStatus,
  /** The bot account serving (or to serve) the group. */
  botAccount: botAccount.nullable().optional(),
});
