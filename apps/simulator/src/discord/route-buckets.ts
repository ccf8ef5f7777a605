/**
 * Which per-route bucket a Discord request falls into. Discord publishes no per-route numbers; these follow
 * what bots meet (platforms.md B.3), taking the stricter reading where reports differ:
 * - member role changes (add, remove, and a member edit, which can change roles): 10 per 10 s per guild,
 *   one bucket shared by the three routes (one `X-RateLimit-Bucket` hash);
 * - message creates: 5 per 5 s per channel;
 * - guild role create/edit/delete: 10 per 10 s per guild, a per-resource limit shared by every caller
 *   (its 429s carry `X-RateLimit-Scope: shared` and do not count as invalid requests, as on Discord);
 * - application command writes (create, edit, delete, bulk overwrite): one bucket per application and guild;
 * - every other route: 10 per 10 s, its own bucket per method + route + major parameter.
 */

export interface BucketLimit {
  limit: number;
  windowSeconds: number;
}

/** The limits of the bucket families, by name (control API `routeBuckets`). */
export interface RouteBucketLimits {
  memberRoles: BucketLimit;
  messages: BucketLimit;
  guildRoles: BucketLimit;
  default: BucketLimit;
}

export const STRICT_ROUTE_BUCKETS: RouteBucketLimits = {
  memberRoles: { limit: 10, windowSeconds: 10 },
  messages: { limit: 5, windowSeconds: 5 },
  guildRoles: { limit: 10, windowSeconds: 10 },
  default: { limit: 10, windowSeconds: 10 },
};

/** One limit for every family: what a test about something else asks for through `discordRate`. */
export const uniformRouteBuckets = (limit: BucketLimit): RouteBucketLimits => ({
  memberRoles: limit,
  messages: limit,
  guildRoles: limit,
  default: limit,
});

export interface RouteBucket {
  /** Shared by every route of the family; one hash per route otherwise. */
  name: string;
  family: keyof RouteBucketLimits;
  /** Per resource, whoever calls (`X-RateLimit-Scope: shared`), instead of per caller. */
  shared: boolean;
}

const MEMBER = '/guilds/:guild_id/members/:user_id';
const COMMANDS = /\/applications\/:application_id(\/guilds\/:guild_id)?\/commands(\/:command_id)?$/;

/** The bucket of a request, from its method and route template (with the /api prefix). */
export function bucketOf(method: string, template: string): RouteBucket {
  if (
    ((method === 'PUT' || method === 'DELETE') && template.endsWith(`${MEMBER}/roles/:role_id`)) ||
    (method === 'PATCH' && template.endsWith(MEMBER))
  )
    return { name: 'member-roles', family: 'memberRoles', shared: false };
  if (method === 'POST' && template.endsWith('/channels/:channel_id/messages'))
    return { name: 'message-create', family: 'messages', shared: false };
  if (
    (method === 'POST' && template.endsWith('/guilds/:guild_id/roles')) ||
    ((method === 'PATCH' || method === 'DELETE') && template.endsWith('/guilds/:guild_id/roles/:role_id'))
  )
    return { name: 'guild-role-writes', family: 'guildRoles', shared: true };
  if (method !== 'GET' && COMMANDS.test(template))
    return { name: 'command-writes', family: 'default', shared: false };
  return { name: `${method} ${template}`, family: 'default', shared: false };
}

/** Path parameters Discord treats as "major": each value gets its own bucket (a webhook's token too). */
const MAJOR_PARAMS = ['guild_id', 'channel_id', 'webhook_id', 'webhook_token', 'interaction_id'] as const;

export const majorOf = (params: Record<string, string>): string =>
  MAJOR_PARAMS.map((p) => params[p] ?? '').join(':');
